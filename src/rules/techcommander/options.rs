//! TechCommander's rulings as a runtime value (placeholder until the rulings move here).

/// The rulings of a run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Options {}

impl Options {
    /// (NAME, default, help) of every option.
    pub fn specs() -> Vec<(&'static str, String, &'static str)> {
        Vec::new()
    }

    /// Set an option by name.
    ///
    /// # Errors
    /// Always: no option yet.
    pub fn set(&mut self, name: &str, _value: &str) -> Result<(), String> {
        Err(format!("unknown techcommander option `{name}`"))
    }

    /// `NAME=value` pairs.
    pub fn pairs(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// # Errors
    /// Never.
    pub fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}
