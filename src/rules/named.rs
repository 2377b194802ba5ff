//! Options as named values: a ruleset's options struct, serialised with its fields named
//! as the rules document names the rulings (`SIX_ALWAYS_CRITS`), read and written as
//! `NAME=value` text for the command line, scenarios, manifests and cell keys.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Every field of `o` as (`NAME`, value) in declaration order: booleans `true`/`false`,
/// numbers in decimal, choices as their names.
///
/// # Panics
/// When `o` does not serialise to a table (a programming error, caught by every test).
pub fn pairs<T: Serialize>(o: &T) -> Vec<(String, String)> {
    let value = serde_json::to_value(o).expect("options serialise");
    let map = value.as_object().expect("options are a table");
    map.iter().map(|(k, v)| (k.clone(), v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string()))).collect()
}

/// Switch field `name` of `o` (any case, `-` or `_`) to `value` (as [`pairs`] writes
/// it). `what` names the kind in messages (`TechCommander option`, `MECHCOM ruling`).
///
/// # Errors
/// An unknown name (with the nearest name), or a value of the wrong kind.
pub fn set<T: Serialize + DeserializeOwned>(o: &mut T, name: &str, value: &str, what: &str) -> Result<(), String> {
    let Value::Object(mut map) = serde_json::to_value(&*o).expect("options serialise") else {
        unreachable!("options are a table")
    };
    let key = name.trim().to_ascii_uppercase().replace('-', "_");
    if !map.contains_key(&key) {
        let nearest = map.keys().max_by(|a, b| strsim::jaro(&key, a).total_cmp(&strsim::jaro(&key, b)));
        return Err(match nearest {
            Some(n) => format!("unknown {what} `{name}` (did you mean {n}?)"),
            None => format!("unknown {what} `{name}`"),
        });
    }
    let v = value.trim();
    let parsed = serde_json::from_str::<Value>(v)
        .ok()
        .filter(|x| x.is_boolean() || x.is_number())
        .unwrap_or_else(|| Value::String(v.to_string()));
    map.insert(key.clone(), parsed);
    let noun = what.rsplit(' ').next().unwrap_or(what);
    *o = serde_json::from_value(Value::Object(map)).map_err(|e| format!("{noun} {key}: bad value `{value}`: {e}"))?;
    Ok(())
}
