//! One block of an odds card: a heatmap (colour and, by default, the value as a
//! percentage in each cell), with optional cell texts that replace the percentages
//! (expected values, counts) and caption lines printed under it.

use crate::charts::data::Heatmap;

/// Per panel, per row, per column: one optional text.
pub type CellTexts = Vec<Vec<Vec<Option<String>>>>;

/// A card's block. The heatmap's values colour the cells (0 to 1 on the card's scale;
/// `None`: grey, no value); its notes are the smaller second line of each cell.
#[derive(Debug, Clone, PartialEq)]
pub struct CardMap {
    pub map: Heatmap,
    /// Texts printed instead of the value's percentage, where `Some`.
    pub texts: Option<CellTexts>,
    /// Lines printed under the block, small, left-aligned (wrapped to the page).
    pub caption: Vec<String>,
    /// The unit of the column labels, appended to a panel title when its columns are
    /// split over several rows ("(6-18 in.)"); empty: none.
    pub column_unit: String,
    /// Panels side by side share the first panel's row labels (rows that mean the same
    /// in every panel: the block then fits where repeated labels would not).
    pub shared_row_labels: bool,
}

impl From<Heatmap> for CardMap {
    fn from(map: Heatmap) -> CardMap {
        CardMap { map, texts: None, caption: Vec::new(), column_unit: String::new(), shared_row_labels: false }
    }
}

impl CardMap {
    /// The same block with `unit` after split column spans.
    pub fn with_column_unit(mut self, unit: &str) -> CardMap {
        self.column_unit = unit.to_string();
        self
    }

    /// The text printed in place of the percentage at panel `p`, row `r`, column `c`.
    pub fn text(&self, p: usize, r: usize, c: usize) -> Option<&str> {
        self.texts.as_ref()?.get(p)?.get(r)?.get(c)?.as_deref()
    }
}

/// `ranges` as whole numbers of `unit`.
///
/// # Errors
/// A range with a fraction.
pub fn whole_ranges(ranges: &[f64], unit: &str) -> Result<Vec<u32>, String> {
    ranges
        .iter()
        .map(|&r| {
            if r.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&r) {
                Ok(r as u32)
            } else {
                Err(format!("--ranges are whole {unit} in this game: {r}"))
            }
        })
        .collect()
}
