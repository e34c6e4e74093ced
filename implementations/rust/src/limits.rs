//! Every bound, read from the contract's table (schemas/limits.json) at build time, and the alias table
//! (schemas/aliases.json). Nothing else in the crate hard-codes a limit.
use serde_json::Value;
use std::sync::OnceLock;

const LIMITS_JSON: &str = include_str!("../../../schemas/limits.json");
const ALIASES_JSON: &str = include_str!("../../../schemas/aliases.json");

/// Bounds newer than some copies of the table, with the values the contract gives them (R15, R16, R22).
const DEFAULT_YAML_MAX_DEPTH: usize = 64;
const DEFAULT_YAML_MAX_KEY_LENGTH: usize = 128;
const DEFAULT_YAML_MAX_NODES: u64 = 250_000;
const DEFAULT_CATALOG_DESCRIPTION_MAX_BYTES: usize = 292;

pub struct Limits {
    pub name_max_length: usize,
    pub name_pattern: regex::Regex,
    pub description_max_length: usize,
    pub compatibility_max_length: usize,
    pub skill_md_max_bytes: u64,
    /// R144: a call's arguments, in UTF-8 bytes.
    pub arguments_max_bytes: usize,
    /// R145: the body after substitution, in UTF-8 bytes.
    pub substituted_body_max_bytes: usize,
    pub yaml_max_aliases: u64,
    pub yaml_max_depth: usize,
    pub yaml_max_key_length: usize,
    pub yaml_max_nodes: u64,
    pub catalog_entry_description_max_bytes: usize,
    /// R95: the most bytes of a cut description's trigger sentence the catalog line shows.
    pub catalog_trigger_sentence_max_bytes: usize,
    pub resources_per_folder: usize,
    pub resources_max: usize,
    pub resource_folders: Vec<String>,
    pub siblings_max: usize,
    pub sibling_similarity_min: f64,
    pub default_sensitive_patterns: Vec<String>,
    pub resource_walk_max_depth: usize,
    pub resource_walk_max_entries: usize,
}

pub struct Alias {
    pub alias: String,
    pub rename: bool,
    pub note: String,
}

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("schemas/limits.json: {key} missing"))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

pub fn limits() -> &'static Limits {
    static L: OnceLock<Limits> = OnceLock::new();
    L.get_or_init(|| {
        let v: Value = serde_json::from_str(LIMITS_JSON).expect("schemas/limits.json is JSON");
        Limits {
            name_max_length: num(&v, "name_max_length") as usize,
            name_pattern: regex::Regex::new(v["name_pattern"].as_str().expect("name_pattern"))
                .expect("name_pattern compiles"),
            description_max_length: num(&v, "description_max_length") as usize,
            compatibility_max_length: num(&v, "compatibility_max_length") as usize,
            skill_md_max_bytes: num(&v, "skill_md_max_bytes") as u64,
            arguments_max_bytes: num(&v, "arguments_max_bytes") as usize,
            substituted_body_max_bytes: num(&v, "substituted_body_max_bytes") as usize,
            yaml_max_aliases: num(&v, "yaml_max_aliases") as u64,
            yaml_max_depth: v["yaml_max_depth"]
                .as_u64()
                .map(|d| d as usize)
                .unwrap_or(DEFAULT_YAML_MAX_DEPTH),
            yaml_max_key_length: v["yaml_max_key_length"]
                .as_u64()
                .map(|d| d as usize)
                .unwrap_or(DEFAULT_YAML_MAX_KEY_LENGTH),
            yaml_max_nodes: v["yaml_max_nodes"]
                .as_u64()
                .unwrap_or(DEFAULT_YAML_MAX_NODES),
            catalog_entry_description_max_bytes: v["catalog_entry_description_max_bytes"]
                .as_u64()
                .map(|d| d as usize)
                .unwrap_or(DEFAULT_CATALOG_DESCRIPTION_MAX_BYTES),
            catalog_trigger_sentence_max_bytes: num(&v, "catalog_trigger_sentence_max_bytes")
                as usize,
            resources_per_folder: num(&v, "resources_per_folder") as usize,
            resources_max: num(&v, "resources_max") as usize,
            resource_folders: strings(&v["resource_folders"]),
            siblings_max: num(&v, "siblings_max") as usize,
            sibling_similarity_min: num(&v, "sibling_similarity_min"),
            default_sensitive_patterns: strings(&v["default_sensitive_patterns"]),
            resource_walk_max_depth: num(&v, "resource_walk_max_depth") as usize,
            resource_walk_max_entries: num(&v, "resource_walk_max_entries") as usize,
        }
    })
}

pub fn aliases() -> &'static [Alias] {
    static A: OnceLock<Vec<Alias>> = OnceLock::new();
    A.get_or_init(|| {
        let v: Value = serde_json::from_str(ALIASES_JSON).expect("schemas/aliases.json is JSON");
        v.as_array()
            .expect("aliases.json is a list")
            .iter()
            .map(|row| Alias {
                alias: row["alias"].as_str().unwrap_or_default().to_string(),
                rename: row["action"].as_str() == Some("rename"),
                note: row["note"].as_str().unwrap_or_default().to_string(),
            })
            .collect()
    })
}
