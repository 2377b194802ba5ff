//! MECHCOM: loading, listing and naming its sides ([`crate::rules::ruleset::Catalogue`]).

use super::*;

impl crate::rules::ruleset::Catalogue for Mechcom {
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

    fn select(cat: &Catalogue, _role: Role, selector: &str) -> Result<Vec<String>, String> {
        cat.select(selector)
    }

    fn field(cat: &Catalogue, name: &str) -> Result<Vec<Weighted>, String> {
        let f = crate::rules::kit::names::lookup(&cat.fields, |f| f.name.as_str(), name, "field", &cat.origin)?;
        Ok(f.opponents.iter().map(|o| Weighted { name: o.model.clone(), weight: o.weight }).collect())
    }

    fn field_names(cat: &Catalogue) -> Vec<String> {
        cat.fields.iter().map(|f| f.name.clone()).collect()
    }

    fn points(cat: &Catalogue, name: &str) -> Result<f64, String> {
        cat.model_named(name)?;
        Ok(cat.model_cost(name))
    }

    fn display_name(cat: &Catalogue, _role: Role, name: &str) -> Result<String, String> {
        cat.model_named(name)?;
        let mut v = cat.select(name)?;
        Ok(if v.len() == 1 { v.remove(0) } else { name.trim().to_string() })
    }

    fn target_columns() -> Vec<Column> {
        vec![Column::int("target_integrity", "the target's full Integrity (pilot bonuses included)")]
    }

    fn target_cells(cat: &Catalogue, name: &str) -> Vec<Cell> {
        vec![cat.model_named(name).map_or(Cell::Null, |m| m.mech.integrity.into())]
    }

    fn forces(cat: &Catalogue) -> Vec<ForceSpec> {
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
        let mut sizes = vec![
            (self.weapons.len(), "weapon", "weapons"),
            (self.mechs.len(), "mech", "mechs"),
            (self.pilots.len(), "pilot", "pilots"),
            (self.squads.len(), "squad", "squads"),
            (self.fields.len(), "field", "fields"),
            (self.forces.len(), "force", "forces"),
        ];
        // Counted only when there are some, as few catalogues write them by hand.
        if !self.builds.is_empty() {
            sizes.insert(3, (self.builds.len(), "build", "builds"));
        }
        sizes
    }
}
