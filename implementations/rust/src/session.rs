//! One session of the skill tool (§7, §12, D4): the checks in their fixed order, dedupe by name, and
//! every outcome a result, never a panic escaping. Calls are served one at a time, in the order made.
use crate::catalog::catalog_json;
use crate::errors::{error_result, Detail};
use crate::frontmatter::FailureKind;
use crate::jsval::clip;
use crate::limits::limits;
use crate::messages::msg;
use crate::params::{parse_params, Arguments};
use crate::paths::{is_inside, real};
use crate::registry::{read_skill, Activation, Failure, FilesystemSkillRegistry, SkillEntry};
use crate::render::{render_already_loaded, render_not_found, render_skill};
use crate::resources::list_resources;
use crate::sensitive::Sensitive;
use crate::siblings::siblings;
use crate::substitute::substitute;
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The session configuration (schemas/session-config.schema.json).
#[derive(Debug, Clone, Default)]
pub struct SessionConfig {
    pub skill_roots: Vec<String>,
    pub sensitive_patterns: Option<Vec<String>>,
    pub trusted_roots: Vec<String>,
    /// "hook_required" (default), "warn" or "allow".
    pub untrusted_project_skills: Option<String>,
    pub hook: Option<bool>,
    pub unsafe_allow_skill_without_hook: bool,
}

impl SessionConfig {
    pub fn from_json(v: &Value) -> Result<Self, String> {
        let strings = |v: &Value, what: &str| -> Result<Vec<String>, String> {
            v.as_array()
                .ok_or(format!("{what} must be a list"))?
                .iter()
                .map(|s| {
                    s.as_str()
                        .map(String::from)
                        .ok_or(format!("{what} must hold strings"))
                })
                .collect()
        };
        let obj = v.as_object().ok_or("config must be an object")?;
        let skill_roots = strings(
            obj.get("skill_roots").ok_or("config needs skill_roots")?,
            "skill_roots",
        )?;
        let sensitive_patterns = obj
            .get("sensitive_patterns")
            .map(|p| strings(p, "sensitive_patterns"))
            .transpose()?;
        let trust = obj.get("skill_trust");
        let trusted_roots = trust
            .and_then(|t| t.get("trusted_roots"))
            .map(|t| strings(t, "trusted_roots"))
            .transpose()?
            .unwrap_or_default();
        let untrusted_project_skills = trust
            .and_then(|t| t.get("untrusted_project_skills"))
            .and_then(Value::as_str)
            .map(String::from);
        let perm = obj.get("permission");
        let hook = perm.and_then(|p| p.get("hook")).and_then(Value::as_bool);
        let unsafe_allow_skill_without_hook = perm
            .and_then(|p| p.get("unsafeAllowSkillWithoutHook"))
            .and_then(Value::as_bool)
            == Some(true);
        if let Some(rel) = skill_roots
            .iter()
            .chain(trusted_roots.iter())
            .find(|r| !r.starts_with('/'))
        {
            return Err(format!(
                "invalid session config: skill roots must be absolute paths; got {}",
                crate::jsval::json_string(rel)
            ));
        }
        Ok(SessionConfig {
            skill_roots,
            sensitive_patterns,
            trusted_roots,
            untrusted_project_skills,
            hook,
            unsafe_allow_skill_without_hook,
        })
    }

    fn policy(&self) -> &str {
        self.untrusted_project_skills
            .as_deref()
            .unwrap_or("hook_required")
    }
}

/// The permission hook (§5.6): gets the request, answers a decision; None means the hook failed (deny).
pub type Hook = Box<dyn FnMut(&Value) -> Option<String>>;

/// Who asked for the activation (a user-initiated one is not blocked by disable-model-invocation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Invocation {
    Model,
    User,
}

pub struct Session {
    config: SessionConfig,
    registry: FilesystemSkillRegistry,
    hook: Option<Hook>,
    sensitive: Sensitive,
    trusted: Option<Vec<PathBuf>>,
    loaded: HashMap<String, (u64, SkillEntry)>,
    activations: u64,
    /// The catalog as its JSON text: built and serialised once, then handed out without a copy of its values.
    catalog: Option<std::rc::Rc<str>>,
    closed: bool,
}

fn failure_result(name: &str, f: &Failure) -> Value {
    let mut d = Detail {
        name: Some(name.into()),
        path: Some(f.path.clone()),
        reason: Some(f.reason.clone()),
        line: f.line,
        ..Detail::default()
    };
    let (id, hint) = match f.code {
        "NAME_MISMATCH" => ("failure.name_mismatch", "failure.name_mismatch_hint"),
        "INVALID_FRONTMATTER" => {
            if f.kind == FailureKind::Yaml {
                if let Some(line) = f.line {
                    d.reason = Some(msg(
                        "failure.yaml_reason_line",
                        &[("reason", &f.reason), ("line", &line.to_string())],
                    ));
                }
            }
            (
                if f.kind == FailureKind::Yaml {
                    "failure.yaml"
                } else {
                    "failure.frontmatter"
                },
                "failure.frontmatter_hint",
            )
        }
        "OUTSIDE_WORKSPACE" => ("failure.outside", "failure.outside_hint"),
        _ => ("failure.io", "failure.io_hint"),
    };
    d.hint = Some(msg(hint, &[]));
    error_result(f.code, &msg(id, &[("name", name)]), d)
}

/// §9 with R145's bound and R146's escape: the body with the call's arguments, or INVALID_PARAM when too large.
fn substituted(entry: &SkillEntry, body: &str, args: Option<&Arguments>) -> Result<String, Value> {
    let declared: HashSet<String> = entry
        .frontmatter
        .get("arguments")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let limit = limits().substituted_body_max_bytes;
    substitute(body, args, &declared, limit).ok_or_else(|| {
        let message = msg(
            "args.body_too_large",
            &[("name", &entry.name), ("limit", &limit.to_string())],
        );
        error_result(
            "INVALID_PARAM",
            &message,
            Detail {
                name: Some(entry.name.clone()),
                hint: Some(msg("args.too_large_hint", &[])),
                ..Detail::default()
            },
        )
    })
}

/// The argument form against the skill's declaration (§2, R4).
fn check_argument_form(entry: &SkillEntry, args: Option<&Arguments>) -> Option<Value> {
    let decl = entry
        .frontmatter
        .get("arguments")
        .and_then(Value::as_object);
    let declared: Vec<&str> = decl
        .map(|d| d.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let names = declared.join(", ");
    let name = entry.name.as_str();
    // The skill's argument-hint, when it is a string, is the hint unless the error has its own.
    let detail = || Detail {
        name: Some(name.into()),
        hint: entry
            .frontmatter
            .get("argument-hint")
            .and_then(Value::as_str)
            .map(|h| msg("args.argument_hint", &[("argument_hint", h)])),
        ..Detail::default()
    };
    let example = |ns: &[&str]| {
        format!(
            "{{{}}}",
            ns.iter()
                .map(|n| msg("format.named_example_item", &[("arg", n)]))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let refuse = |message: String, hint: Option<String>| {
        let mut d = detail();
        if hint.is_some() {
            d.hint = hint;
        }
        Some(error_result("INVALID_PARAM", &message, d))
    };
    let required = |d: &Value| d.get("required") == Some(&Value::Bool(true));
    // R36: required named arguments missing, from a map or because no arguments came at all: one refusal naming them all.
    let missing_refusal = |decl: &serde_json::Map<String, Value>, given: &[(String, String)]| {
        let missing: Vec<&str> = decl
            .iter()
            .filter(|(n, d)| required(d) && !given.iter().any(|(k, _)| k == *n))
            .map(|(n, _)| n.as_str())
            .collect();
        if missing.is_empty() {
            return None;
        }
        let id = if missing.len() > 1 {
            "args.required_missing_many"
        } else {
            "args.required_missing_one"
        };
        refuse(
            msg(id, &[("name", name), ("names", &missing.join(", "))]),
            Some(msg(
                "args.expects_named_hint",
                &[("example", &example(&missing))],
            )),
        )
    };
    match (args, decl) {
        (Some(Arguments::Positional(_)), Some(_)) => refuse(
            msg("args.expects_named", &[("name", name), ("names", &names)]),
            Some(msg(
                "args.expects_named_hint",
                &[("example", &example(&declared))],
            )),
        ),
        (Some(Arguments::Named(_)), None) => refuse(
            msg("args.no_named", &[("name", name)]),
            Some(msg("args.no_named_hint", &[])),
        ),
        (Some(Arguments::Named(pairs)), Some(decl)) => {
            if let Some((key, _)) = pairs.iter().find(|(k, _)| !decl.contains_key(k)) {
                return refuse(
                    msg(
                        "args.unknown",
                        &[("name", name), ("key", &clip(key, 64)), ("names", &names)],
                    ),
                    None,
                );
            }
            missing_refusal(decl, pairs)
        }
        (None, Some(decl)) => missing_refusal(decl, &[]),
        _ => None,
    }
}

impl Session {
    pub fn new(config: SessionConfig, hook: Option<Hook>) -> Self {
        let patterns = config
            .sensitive_patterns
            .clone()
            .unwrap_or_else(|| limits().default_sensitive_patterns.clone());
        let hook = if config.hook == Some(false) {
            None
        } else {
            hook
        };
        Session {
            registry: FilesystemSkillRegistry::new(config.skill_roots.clone()),
            sensitive: Sensitive::new(&patterns),
            config,
            hook,
            trusted: None,
            loaded: HashMap::new(),
            activations: 0,
            catalog: None,
            closed: false,
        }
    }

    /// Built once per session, like the discovery it renders (§7: no watching).
    pub fn catalog(&mut self) -> Value {
        serde_json::from_str(&self.catalog_json()).expect("the catalog's own JSON reads back")
    }

    /// The catalog as JSON text, what the driver sends. Kept as text, not a `Value`: a `Value` tree of
    /// 10,000 entries costs more memory than its text and a clone plus a drop on every request.
    pub fn catalog_json(&mut self) -> std::rc::Rc<str> {
        let registry = &mut self.registry;
        self.catalog
            .get_or_insert_with(|| {
                let d = registry.scan();
                catalog_json(&d.entries, &d.warnings).into()
            })
            .clone()
    }

    pub fn close(&mut self) {
        self.closed = true;
        self.loaded.clear();
    }

    /// One call of the tool. A panic inside (a bug, an fs surprise) still comes back as a result (§3.4).
    pub fn call(&mut self, params: &Value, invocation: Invocation, turn: Option<u64>) -> Value {
        let run = std::panic::AssertUnwindSafe(|| self.handle(params, invocation, turn));
        std::panic::catch_unwind(run).unwrap_or_else(|panic| {
            let text = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            error_result(
                "IO_ERROR",
                &msg("session.internal", &[]),
                Detail {
                    reason: Some(clip(&text, 200)),
                    hint: Some(msg("session.internal_hint", &[])),
                    ..Detail::default()
                },
            )
        })
    }

    fn trusted_roots(&mut self) -> &[PathBuf] {
        let roots = &self.config.trusted_roots;
        self.trusted
            .get_or_insert_with(|| roots.iter().filter_map(|r| real(r)).collect())
    }

    fn handle(&mut self, params: &Value, invocation: Invocation, turn: Option<u64>) -> Value {
        if self.closed {
            return error_result(
                "INVALID_PARAM",
                &msg("session.closed", &[]),
                Detail {
                    hint: Some(msg("session.closed_hint", &[])),
                    ..Detail::default()
                },
            );
        }
        let p = match parse_params(params) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let (name, args) = (p.name.as_str(), p.arguments.as_ref());
        let d = self.registry.scan();
        let Some(&index) = d.by_name.get(name) else {
            if let Some(b) = d.broken.get(name) {
                return failure_result(name, &b.failure);
            }
            let sib = siblings(name, d.entries.iter().map(|e| e.entry.name.as_str()));
            return json!({"kind": "not_found", "name": name, "siblings": sib, "output": render_not_found(name, &sib)});
        };
        if let Some((at_turn, entry)) = self.loaded.get(name) {
            // Dedupe never re-reads (§7): the argument form is judged by the skill as it was activated.
            if let Some(e) = check_argument_form(entry, args) {
                return e;
            }
            return json!({"kind": "already_loaded", "name": name, "at_turn": at_turn, "output": render_already_loaded(name, *at_turn)});
        }
        // Re-read and fence now: the tree may have changed since discovery (R6). The argument form is judged
        // by the freshest frontmatter there is, and still before a fence or read failure is reported (D4).
        let entry = d.entries[index].entry.clone();
        let fence = d.fence.clone();
        let read = read_skill(&entry.dir, entry.root_index, &fence);
        let current = match &read {
            Ok(a) => SkillEntry {
                frontmatter: a.entry.frontmatter.clone(),
                ..entry.clone()
            },
            Err(_) => entry.clone(),
        };
        if let Some(e) = check_argument_form(&current, args) {
            return e;
        }
        let activation = match read {
            Ok(a) => a,
            Err(f) => return failure_result(name, &f),
        };
        // R145: a fault of the call's arguments, judged before the gates (D4).
        let body = match substituted(&current, &activation.body, args) {
            Ok(body) => body,
            Err(refusal) => return refusal,
        };
        match self.gate(&current, &activation, invocation) {
            Ok(warnings) => self.activate(current, activation, body, turn, &fence, warnings),
            Err(refusal) => refusal,
        }
    }

    /// List resources, render, and mark the skill loaded (only an ok marks it, D4).
    fn activate(
        &mut self,
        skill: SkillEntry,
        activation: Activation,
        body: String,
        turn: Option<u64>,
        fence: &[PathBuf],
        mut warnings: Vec<String>,
    ) -> Value {
        let fm = &skill.frontmatter;
        let listing = list_resources(&activation.dir, fence);
        warnings.extend(listing.warnings.iter().cloned());
        let bytes = body.len();
        let output = render_skill(&skill.name, &skill.dir, fm, &body, &listing, bytes);
        self.activations += 1;
        let at_turn = turn.unwrap_or(self.activations);
        let mut result = Map::new();
        for (k, v) in [
            ("kind", json!("ok")),
            ("name", json!(skill.name)),
            ("dir", json!(skill.dir)),
            ("body", json!(body)),
            ("frontmatter", Value::Object(fm.clone())),
            ("resources", json!(listing.resources)),
            ("bytes", json!(bytes)),
            ("output", json!(output)),
        ] {
            result.insert(k.into(), v);
        }
        if !listing.omitted.is_empty() {
            result.insert(
                "resources_omitted".into(),
                Value::Object(
                    listing
                        .omitted
                        .iter()
                        .map(|(k, n)| (k.clone(), json!(n)))
                        .collect(),
                ),
            );
        }
        if !warnings.is_empty() {
            result.insert("warnings".into(), json!(warnings));
        }
        self.loaded.insert(skill.name.clone(), (at_turn, skill));
        Value::Object(result)
    }

    /// Sensitive → disable-model-invocation → trust gate → permission hook (D4–D6). Ok carries warnings.
    fn gate(
        &mut self,
        skill: &SkillEntry,
        activation: &Activation,
        invocation: Invocation,
    ) -> Result<Vec<String>, Value> {
        let name = skill.name.as_str();
        let dir = skill.dir.as_str();
        let fm = &skill.frontmatter;
        let detail = |hint: &str| Detail {
            name: Some(name.into()),
            path: Some(dir.into()),
            hint: Some(msg(hint, &[])),
            ..Detail::default()
        };
        let real_dir = activation.real_dir.as_path();
        // R143: the SKILL.md read, too, when it is not <real dir>/SKILL.md (a symlink).
        let mut paths = vec![real_dir, Path::new(dir)];
        if activation.real_md != real_dir.join("SKILL.md") {
            paths.push(&activation.real_md);
        }
        let sensitive = self.sensitive.matches(&paths).map(String::from);
        if let (Some(pattern), None) = (&sensitive, &self.hook) {
            let reason = Some(msg("sensitive.reason", &[("pattern", pattern)]));
            return Err(error_result(
                "SENSITIVE",
                &msg("sensitive.message", &[("name", name)]),
                Detail {
                    reason,
                    ..detail("sensitive.hint")
                },
            ));
        }
        if fm.get("disable-model-invocation") == Some(&Value::Bool(true))
            && invocation != Invocation::User
        {
            return Err(error_result(
                "DISABLED",
                &msg("disabled.message", &[("name", name)]),
                detail("disabled.hint"),
            ));
        }
        let trusted = is_inside(real_dir, self.trusted_roots());
        let policy = self.config.policy().to_string();
        let untrusted_reason = || Some(msg("trust.reason", &[]));
        let Some(hook) = self.hook.as_mut() else {
            if trusted || self.config.unsafe_allow_skill_without_hook || policy == "allow" {
                return Ok(Vec::new());
            }
            if policy == "warn" {
                return Ok(vec![msg("trust.warn", &[("name", name)])]);
            }
            return Err(error_result(
                "NOT_TRUSTED",
                &msg("trust.no_hook", &[("name", name)]),
                Detail {
                    reason: untrusted_reason(),
                    ..detail("trust.hint")
                },
            ));
        };
        let reason = if sensitive.is_some() {
            "sensitive"
        } else if !trusted && policy != "allow" {
            "untrusted_project_skill"
        } else {
            "normal"
        };
        let mut request_fm = fm.clone();
        request_fm.insert(
            "allowed_tools".into(),
            fm.get("allowed-tools")
                .cloned()
                .unwrap_or_else(|| json!([])),
        );
        let request = json!({
            "tool": "skill",
            "action": "activate",
            "path": dir,
            "always_patterns": [format!("Skill(name:{name})")],
            "metadata": {"name": name, "root_index": skill.root_index, "frontmatter": request_fm, "reason": reason},
        });
        let decision = hook(&request).unwrap_or_else(|| "deny".into());
        if decision == "allow" || decision == "allow_once" {
            return Ok(Vec::new());
        }
        let asked = if decision == "ask" {
            msg("permission.ask_suffix", &[])
        } else {
            String::new()
        };
        if reason == "untrusted_project_skill" {
            let message = msg("trust.hook_refused", &[("name", name), ("asked", &asked)]);
            return Err(error_result(
                "NOT_TRUSTED",
                &message,
                Detail {
                    reason: untrusted_reason(),
                    ..detail("trust.hint")
                },
            ));
        }
        Err(error_result(
            "PERMISSION_DENIED",
            &msg("permission.denied", &[("name", name), ("asked", &asked)]),
            detail("permission.denied_hint"),
        ))
    }
}
