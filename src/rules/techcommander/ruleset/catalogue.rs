//! TechCommander: loading, listing and naming its sides ([`crate::rules::ruleset::Catalogue`]).

use super::*;

impl crate::rules::ruleset::Catalogue for TechCommander {
    fn forces(cat: &Catalogue) -> Vec<crate::catalogue::force::ForceSpec> {
        cat.forces.clone()
    }

    fn load(origin: &str, files: &[SourceFile], read_errors: Vec<CatalogError>) -> Result<Catalogue, CatalogErrors> {
        Catalogue::from_read(origin, files, read_errors)
    }

    fn refers_to_undefined(files: &[SourceFile]) -> bool {
        Catalogue::refers_to_undefined(files)
    }

    fn listings() -> &'static [&'static str] {
        listing::LISTINGS
    }

    fn section_listing(cat: &Catalogue, what: &str) -> Result<Table, String> {
        listing::listing(cat, what)
    }

    fn select(cat: &Catalogue, role: Role, selector: &str) -> Result<Vec<String>, String> {
        match role {
            Role::Attacker | Role::Opponent => builds(cat, selector),
            Role::Target => {
                let spec = TargetSpec::parse(selector)?;
                let t = spec.resolve(cat)?;
                Ok(vec![match spec {
                    TargetSpec::Named(_) => t.name,
                    // the catalogue's spelling, as keys and tables print it
                    TargetSpec::Build(n) => TargetSpec::Build(cat.find_build(&n)?.name.clone()).to_string(),
                    TargetSpec::Ac(_) => spec.to_string(),
                }])
            }
        }
    }

    fn field(cat: &Catalogue, name: &str) -> Result<Vec<Weighted>, String> {
        let f = names::lookup(&cat.fields, |f| f.name.as_str(), name, "field", &cat.origin)?;
        Ok(f.opponents.iter().map(|&(b, w)| Weighted { name: cat.builds[b].name.clone(), weight: w }).collect())
    }

    fn field_names(cat: &Catalogue) -> Vec<String> {
        cat.fields.iter().map(|f| f.name.clone()).collect()
    }

    fn points(cat: &Catalogue, name: &str) -> Result<f64, String> {
        match cat.build(name) {
            Some(b) => Ok(b.points),
            None => target(cat, name).map(|t| t.points),
        }
    }

    fn display_name(cat: &Catalogue, role: Role, name: &str) -> Result<String, String> {
        match role {
            Role::Target => target(cat, name).map(|t| t.name),
            _ => cat.find_build(name).map(|b| b.name.clone()),
        }
    }

    fn target_columns() -> Vec<Column> {
        vec![Column::int("target_ac", "the target's size AC")]
    }

    fn target_cells(cat: &Catalogue, name: &str) -> Vec<Cell> {
        vec![target(cat, name).map_or(Cell::Null, |t| t.size_ac.into())]
    }

    fn as_target(opponent: &str) -> String {
        TargetSpec::Build(opponent.to_string()).to_string()
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
            (self.gear.len(), "gear", "gear"),
            (self.builds.len(), "build", "builds"),
            (self.fields.len(), "field", "fields"),
            (self.forces.len(), "force", "forces"),
        ]
    }
}
