//! Shellshock: loading, listing and naming its sides ([`crate::rules::ruleset::Catalogue`]).

use super::*;

impl crate::rules::ruleset::Catalogue for Shellshock {
    fn load(origin: &str, files: &[SourceFile], read_errors: Vec<CatalogError>) -> Result<Catalogue, CatalogErrors> {
        Catalogue::from_read(origin, files, read_errors)
    }

    fn refers_to_undefined(files: &[SourceFile]) -> bool {
        Catalogue::refers_to_undefined(files)
    }

    fn listings() -> &'static [&'static str] {
        &["units", "weapons", "charts", "fields", "forces"]
    }

    fn section_listing(cat: &Catalogue, what: &str) -> Result<Table, String> {
        match what {
            "units" => {
                let mut t = Table::new([
                    "name",
                    "era",
                    "dice",
                    "defense",
                    "armor",
                    "shock_threshold",
                    "penetration_factor",
                    "dead_at",
                    "gunners",
                    "ecv",
                ]);
                for u in &cat.units {
                    let dv: Vec<String> = crate::rules::shellshock::unit::DvType::NAMES
                        .iter()
                        .zip(u.defense)
                        .map(|(n, v)| format!("{n} {v}"))
                        .collect();
                    let gunners: Vec<String> = u
                        .gunners
                        .iter()
                        .map(|g| {
                            g.weapons.iter().map(|&i| cat.weapons[i].name.as_str()).collect::<Vec<_>>().join(" + ")
                        })
                        .collect();
                    t.push(vec![
                        u.name.as_str().into(),
                        u.era.name().into(),
                        u.dice.name().into(),
                        dv.join(", ").into(),
                        format!("{}/{}/{}", u.armor.front, u.armor.side, u.armor.rear).into(),
                        u.shock_threshold.into(),
                        u.penetration_factor.into(),
                        u.dead_at.into(),
                        gunners.join("; ").into(),
                        u.ecv.into(),
                    ]);
                }
                Ok(t)
            }
            "weapons" => {
                let mut t =
                    Table::new(["name", "type", "damage", "shock", "penetration", "spreadfire", "indirect", "range"]);
                for w in &cat.weapons {
                    t.push(vec![
                        w.name.as_str().into(),
                        w.kind.name().into(),
                        w.damage.into(),
                        w.shock.into(),
                        w.penetration.into(),
                        w.spreadfire.into(),
                        w.indirect.into(),
                        w.range.into(),
                    ]);
                }
                Ok(t)
            }
            "charts" => {
                let mut t = Table::new(["name", "equipment"]);
                for c in &cat.charts {
                    let items: Vec<String> = c
                        .equipment
                        .iter()
                        .map(|e| {
                            format!(
                                "{} {} ({} lines, {} hits)",
                                e.letter,
                                e.name,
                                c.lines.iter().filter(|l| **l == e.letter).count(),
                                e.hits
                            )
                        })
                        .collect();
                    t.push(vec![c.name.as_str().into(), items.join("; ").into()]);
                }
                Ok(t)
            }
            "fields" => Ok(crate::rules::ruleset::fields_table::<Shellshock>(cat)),
            other => Err(format!("unknown listing `{other}`: Shellshock lists units, weapons, charts, fields, forces")),
        }
    }

    fn select(cat: &Catalogue, _role: Role, selector: &str) -> Result<Vec<String>, String> {
        cat.select(selector)
    }

    fn field(cat: &Catalogue, name: &str) -> Result<Vec<Weighted>, String> {
        let f = crate::rules::kit::names::lookup(&cat.fields, |f| f.name.as_str(), name, "field", &cat.origin)?;
        Ok(f.opponents.iter().map(|(n, w)| Weighted { name: n.clone(), weight: *w }).collect())
    }

    fn field_names(cat: &Catalogue) -> Vec<String> {
        cat.fields.iter().map(|f| f.name.clone()).collect()
    }

    fn points(cat: &Catalogue, name: &str) -> Result<f64, String> {
        Ok(unit(cat, name)?.ecv)
    }

    fn display_name(cat: &Catalogue, _role: Role, name: &str) -> Result<String, String> {
        Ok(unit(cat, name)?.name.clone())
    }

    fn target_columns() -> Vec<Column> {
        vec![Column::int("target_dead_at", "the Internal a single gunner's hit needs to reach the target's Dead box")]
    }

    fn target_cells(cat: &Catalogue, target: &str) -> Vec<Cell> {
        vec![cat.unit(target).map_or(Cell::Null, |u| u.dead_at.into())]
    }

    fn forces(cat: &Catalogue) -> Vec<crate::catalogue::force::ForceSpec> {
        cat.forces.clone()
    }
}

impl crate::rules::kit::catalogue::Provenance for Catalogue {
    fn origin(&self) -> &str {
        &self.origin
    }

    fn hash(&self) -> &str {
        &self.hash
    }

    fn sizes(&self) -> Vec<(usize, &'static str, &'static str)> {
        vec![
            (self.weapons.len(), "weapon", "weapons"),
            (self.units.len(), "unit", "units"),
            (self.charts.len(), "chart", "charts"),
            (self.fields.len(), "field", "fields"),
            (self.forces.len(), "force", "forces"),
        ]
    }
}
