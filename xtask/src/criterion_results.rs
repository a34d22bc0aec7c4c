//! Reading criterion's results (`target/criterion/**/new/{benchmark,estimates}.json`).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

/// One benchmark's median, as criterion stored it.
#[derive(Debug, Clone)]
pub struct Measurement {
    /// Median time per iteration in nanoseconds.
    pub median_ns: f64,
    /// When criterion wrote it.
    pub when: SystemTime,
}

/// (group, function, parameter) of one benchmark; the parameter is "" when it has none.
type Key = (String, String, String);

/// Every stored measurement, keyed by (group, function, parameter).
#[derive(Debug, Default)]
pub struct Results {
    map: BTreeMap<Key, Measurement>,
}

impl Results {
    /// Loads every `new/` result under `dir` (empty if there is none).
    pub fn load(dir: &Path) -> Result<Self, String> {
        let mut results = Results::default();
        if dir.exists() {
            results.walk(dir)?;
        }
        Ok(results)
    }

    fn walk(&mut self, dir: &Path) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.is_dir() {
                continue;
            }
            if path.file_name().is_some_and(|n| n == "new") {
                if let Some((key, m)) = read_one(&path)? {
                    self.map.insert(key, m);
                }
            } else if path
                .file_name()
                .is_none_or(|n| n != "report" && n != "base" && n != "change")
            {
                self.walk(&path)?;
            }
        }
        Ok(())
    }

    /// The median of `group/function/parameter` in nanoseconds.
    pub fn get(&self, group: &str, function: &str, parameter: &str) -> Option<&Measurement> {
        self.map
            .get(&(group.to_string(), function.to_string(), parameter.to_string()))
    }

    /// Functions and parameters measured in `group`.
    pub fn in_group<'a>(&'a self, group: &'a str) -> impl Iterator<Item = (&'a str, &'a str, &'a Measurement)> + 'a {
        self.map
            .iter()
            .filter(move |((g, _, _), _)| g == group)
            .map(|((_, f, p), m)| (f.as_str(), p.as_str(), m))
    }
}

fn read_one(new_dir: &Path) -> Result<Option<(Key, Measurement)>, String> {
    let read = |name: &str| -> Result<Option<serde_json::Value>, String> {
        let path = new_dir.join(name);
        match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| format!("{}: {e}", path.display())),
            Err(_) => Ok(None),
        }
    };
    let (Some(bench), Some(estimates)) = (read("benchmark.json")?, read("estimates.json")?) else {
        return Ok(None);
    };
    let text = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
    let key = (
        text(&bench["group_id"]),
        text(&bench["function_id"]),
        text(&bench["value_str"]),
    );
    let Some(median_ns) = estimates["median"]["point_estimate"].as_f64() else {
        return Ok(None);
    };
    let when = std::fs::metadata(new_dir.join("estimates.json"))
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH);
    Ok(Some((key, Measurement { median_ns, when })))
}
