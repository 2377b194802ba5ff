//! Skirmishers: loading, listing and naming its sides ([`crate::rules::ruleset::Catalogue`]).

use super::*;

impl crate::rules::ruleset::Catalogue for Skirmishers {
    fn forces(cat: &Catalogue) -> Vec<ForceSpec> {
        crate::rules::skirmishers::battle::squads_as_forces(cat)
    }

    fn load(origin: &str, files: &[SourceFile], read_errors: Vec<CatalogError>) -> Result<Catalogue, CatalogErrors> {
        Catalogue::from_read(origin, files, read_errors)
    }

    fn refers_to_undefined(files: &[SourceFile]) -> bool {
        Catalogue::refers_to_undefined(files)
    }

    fn listings() -> &'static [&'static str] {
        &["troopers", "weapons", "squads", "forces"]
    }

    fn section_listing(cat: &Catalogue, what: &str) -> Result<Table, String> {
        report::listing(cat, what)
    }

    fn select(cat: &Catalogue, _role: Role, selector: &str) -> Result<Vec<String>, String> {
        cat.select(selector)
    }

    fn field(cat: &Catalogue, name: &str) -> Result<Vec<Weighted>, String> {
        let s = cat.squad(name)?;
        Ok(s.members.iter().map(|(i, n)| Weighted { name: cat.troopers[*i].name.clone(), weight: *n as f64 }).collect())
    }

    fn field_names(cat: &Catalogue) -> Vec<String> {
        cat.squads.iter().map(|s| s.name.clone()).collect()
    }

    fn points(cat: &Catalogue, name: &str) -> Result<f64, String> {
        Ok(trooper_of(cat, name)?.pv as f64)
    }

    fn display_name(cat: &Catalogue, _role: Role, name: &str) -> Result<String, String> {
        Ok(trooper_of(cat, name)?.name.clone())
    }

    fn target_columns() -> Vec<Column> {
        vec![
            Column::text("target_track", "the target's damage track"),
            Column::int("target_armour_cells", "the target's armour cells"),
        ]
    }

    fn target_cells(cat: &Catalogue, target: &str) -> Vec<Cell> {
        match cat.trooper(target) {
            Ok(t) => vec![t.track.name().into(), t.armour_cells().into()],
            Err(_) => vec![Cell::Null, Cell::Null],
        }
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
            (self.troopers.len(), "trooper", "troopers"),
            (self.squads.len(), "squad", "squads"),
        ]
    }
}
