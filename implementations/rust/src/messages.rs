//! Every piece of model-facing prose (messages, reasons, hints, warnings, the tool description) in one
//! table of templates with `{placeholder}`s, and the tiny renderer that fills them. Nothing else in the
//! crate writes prose, so loading the contract's shared table (schemas/) instead is a change here only.

/// (id, template). `{word}` is replaced by the argument of that name; any other brace is literal.
const TABLE: &[(&str, &str)] = &[
    // Tool input (§2, §2.1, D3, R4).
    ("params.hint", "Call skill with {\"name\": \"<name from the catalog>\"} and, only if the skill takes them, \"arguments\"."),
    ("params.not_object", "skill input must be a JSON object with a \"name\"; got {got}"),
    ("params.alias_rename", "unknown parameter \"{key}\": {note}"),
    ("params.alias_drop", "parameter \"{key}\" is not supported: {note}"),
    ("params.unknown", "unknown parameter \"{key}\": the skill tool takes only \"name\" and \"arguments\""),
    ("params.name_missing", "missing required parameter \"name\""),
    ("params.name_type", "\"name\" must be a string; got {got}"),
    ("params.name_empty", "\"name\" must not be empty"),
    ("params.name_too_long", "skill name must be at most {max} characters; got {length}"),
    ("params.name_pattern", "skill name must be lowercase-kebab-case; got \"{name}\""),
    ("params.argument_type", "argument \"{key}\" of skill {name} must be a string; v1 arguments are strings only"),
    ("params.arguments_type", "\"arguments\" must be a string or an object of strings; got {got}"),
    // Argument form against the skill's declaration (§2, R4).
    ("args.argument_hint", "argument-hint: {hint}"),
    ("args.expects_named", "skill {name} expects named arguments: {list}"),
    ("args.object_hint", "Pass arguments as a JSON object, e.g. {{example}}."),
    ("args.no_named", "skill {name} does not accept named arguments"),
    ("args.no_named_hint", "Pass arguments as a string, or omit them."),
    ("args.unknown", "skill {name} has no argument \"{key}\"; it expects: {list}"),
    ("args.required", "skill {name} requires argument \"{arg}\""),
    ("args.required_missing", "skill {name} requires argument{s}: {list}"),
    // Session-level outcomes (§5.4–§5.6, D4–D6).
    ("session.closed", "this skill session is closed"),
    ("session.closed_hint", "Start a new session."),
    ("session.unexpected", "the skill could not be activated because of an unexpected failure"),
    ("session.unexpected_hint", "Retry once; if it fails again, continue without the skill."),
    ("sensitive.message", "skill \"{name}\" is in a sensitive location and no permission hook is configured"),
    ("sensitive.reason", "the skill directory matches the sensitive pattern {pattern}"),
    ("sensitive.hint", "Do not retry; ask the user to move the skill or configure a permission hook."),
    ("disabled.message", "skill \"{name}\" cannot be activated by the model (disable-model-invocation: true)"),
    ("disabled.hint", "Do not retry. Only the user can invoke this skill; tell them it exists if it fits their request."),
    ("trust.no_hook", "skill \"{name}\" comes from an untrusted skill root and needs approval from a permission hook, which is not configured"),
    ("trust.reason", "untrusted_project_skill"),
    ("trust.hint", "Do not retry or change the call; ask the user to review and trust this skill."),
    ("trust.warn", "skill \"{name}\" is an untrusted project skill, activated under untrusted_project_skills: warn"),
    ("trust.hook_refused", "skill \"{name}\" is an untrusted project skill and the permission hook did not approve it{asked}"),
    ("hook.ask_suffix", " (ask is treated as deny)"),
    ("hook.denied", "activation of skill \"{name}\" was denied by the permission hook{asked}"),
    ("hook.denied_hint", "Do not retry; continue without this skill or ask the user."),
    // A skill that cannot be used (§3.4, §4.5, §5.3, D2, R6).
    ("failure.name_mismatch", "skill \"{name}\" declares a different name in its frontmatter"),
    ("failure.name_mismatch_hint", "The frontmatter name must equal the skill's directory name; this skill cannot be used until its author fixes it."),
    ("failure.yaml", "skill \"{name}\" has malformed YAML frontmatter."),
    ("failure.field", "skill \"{name}\" has invalid frontmatter."),
    ("failure.reason_at_line", "{reason} (line {line})"),
    ("failure.frontmatter_hint", "frontmatter must be valid YAML between two `---` lines at the top of the file, with name and description. See agentskills.io/specification."),
    ("failure.outside", "skill \"{name}\" resolves outside the configured skill roots"),
    ("failure.outside_hint", "Do not retry; skills are only loaded from inside the session's skill roots."),
    ("failure.io", "skill \"{name}\" could not be read"),
    ("failure.io_hint", "Do not retry; continue without this skill."),
    // Reading SKILL.md and the fence (R6, D11, the UTF-8 / NUL rule).
    ("read.not_utf8", "SKILL.md is not valid UTF-8 text"),
    ("read.nul", "SKILL.md contains NUL bytes: it is not a text file"),
    ("read.too_big", "SKILL.md is {size} bytes; the limit is {limit}"),
    ("read.not_file", "SKILL.md is not a regular file"),
    ("read.cannot_read", "cannot read SKILL.md ({errno})"),
    ("read.dir_gone", "the skill directory no longer resolves"),
    ("read.md_unresolved", "SKILL.md does not resolve"),
    ("read.outside", "{what} resolves outside every configured skill root"),
    ("read.what_dir", "the skill directory"),
    ("read.what_md", "SKILL.md"),
    // Discovery warnings (§5.1, §5.2, D8).
    ("discovery.root_missing", "skill root {root} does not exist or cannot be resolved; skipped"),
    ("discovery.root_duplicate", "skill root {root} is the same directory as root {first}; skipped"),
    ("discovery.root_unlistable", "skill root {root} cannot be listed; skipped"),
    ("discovery.skipped", "skill {dir} skipped: {code}: {reason}"),
    ("discovery.shadowed", "skill \"{name}\" at {dir} is shadowed by {winner}"),
    // Frontmatter (§4.5, frontmatter-fields.md, R2, R3).
    ("fm.no_opening", "SKILL.md has no frontmatter: the first line must be --- (then name and description, then a closing ---)"),
    ("fm.not_closed", "frontmatter is not closed: no --- line after the opening one"),
    ("fm.empty", "frontmatter is empty: name and description are required"),
    ("fm.not_mapping", "frontmatter must be a YAML mapping; got {got}"),
    ("fm.missing", "missing required field '{field}'"),
    ("fm.not_string", "field '{field}' must be a string; got {got}"),
    ("fm.name_length", "field 'name' must be 1–{max} characters; got {length}"),
    ("fm.name_pattern", "field 'name' must be lowercase-kebab-case; got \"{name}\""),
    ("fm.description_empty", "field 'description' must not be empty"),
    ("fm.description_length", "field 'description' must be at most {max} characters; got {length}"),
    ("fm.name_mismatch", "frontmatter name \"{name}\" does not match the directory name \"{dir}\""),
    ("fm.compatibility", "field 'compatibility' must be a string of 1–{max} characters"),
    ("fm.metadata", "field 'metadata' must be a mapping; got {got}"),
    ("fm.not_boolean", "field '{field}' must be a boolean (true or false); got {got}"),
    ("fm.arguments", "field 'arguments' must be a mapping of argument name to {type, required, description}; got {got}"),
    ("fm.argument_decl", "argument '{arg}' must be a mapping like {type: string, required: true}"),
    ("fm.argument_type", "argument '{arg}' has type {got}; v1 arguments are strings only"),
    ("fm.argument_required", "argument '{arg}': required must be a boolean"),
    ("fm.argument_description", "argument '{arg}': description must be a string"),
    ("fm.allowed_tools_item", "allowed-tools[{index}] must be a string"),
    ("fm.allowed_tools_type", "allowed-tools must be a string or an array of strings"),
    // YAML refusals of the frontmatter contract (R12–R16), and the reference parser's words for common syntax errors.
    ("yaml.forbidden_char", "frontmatter contains {what}; only printable text, tabs and line feeds are allowed"),
    ("yaml.lone_cr", "a carriage return not followed by a line feed"),
    ("yaml.character", "the character {code}"),
    ("yaml.directive", "YAML directives (%YAML, %TAG) are not allowed in frontmatter: it is always YAML 1.2, core schema"),
    ("yaml.multiple_documents", "frontmatter holds more than one YAML document (a '--- ' or '...' line inside it); quote the text or remove the marker"),
    ("yaml.tag", "a YAML tag ({tag}) is not allowed: frontmatter values are JSON data; quote the value if it is text"),
    ("yaml.key_not_string", "mapping keys must be strings; got {got} (quote it)"),
    ("yaml.key_null", "an empty (null) key"),
    ("yaml.key_collection", "a list or mapping"),
    ("yaml.key_length", "a mapping key is {length} characters long; the limit is {max}"),
    ("yaml.duplicate_key", "duplicate key '{key}'"),
    ("yaml.too_deep", "frontmatter nests deeper than {max} levels of lists and mappings"),
    ("yaml.too_deep_aliases", "frontmatter nests deeper than {max} levels of lists and mappings (aliases expanded)"),
    ("yaml.aliases", "frontmatter expands more than {max} YAML aliases (counting aliases inside expanded ones)"),
    ("yaml.nodes", "frontmatter holds more than {max} values (aliases expanded)"),
    ("yaml.string_bytes", "frontmatter strings exceed {max} bytes once aliases are expanded"),
    ("yaml.unknown_anchor", "alias *{anchor} refers to no earlier anchor &{anchor}"),
    ("yaml.surrogate_escape", "a \\u escape in the surrogate range (D800–DFFF) is not a character; write the character itself or use \\U with 8 digits"),
    ("yaml.unsafe_integer", "the integer {source} is outside ±9007199254740991 and would change (quote it to keep it as text)"),
    ("yaml.not_finite", "{source} is not a JSON number (quote it to keep it as text)"),
    ("yaml.unclosed_quote", "Missing closing {quote}quote"),
    ("yaml.tab_indent", "Tabs are not allowed as indentation"),
    ("yaml.compact_mapping", "Nested mappings are not allowed in compact mappings"),
    ("yaml.flow_sequence", "Flow sequence in block collection must be sufficiently indented and end with a ]"),
    ("yaml.flow_map", "Flow map in block collection must be sufficiently indented and end with a }"),
    ("yaml.reserved", "Plain value cannot start with reserved character {char}"),
    // Fields accepted leniently (R19, R20): catalog warnings.
    ("fm.blank_ignored", "field '{field}' is empty{at}; ignored"),
    ("fm.blank_disable", "field 'disable-model-invocation' is empty; write true or false"),
    ("fm.informational_kept", "field '{field}' should be a string; got {got}{at}{example}; kept as written"),
    ("fm.informational_list_example", " (YAML reads [..] as a list; quote it: {field}: \"[...]\")"),
    ("fm.at_line", " (line {line})"),
    ("fm.hint_as_text", "field 'argument-hint' is not valid YAML as written (line {line}); read as the text {value} (quote it)"),
    ("discovery.note", "skill {dir}: {note}"),
    // What the model reads (§3.1–§3.3, R1).
    ("render.activated", "(Skill \"{name}\" activated. Body is {bytes} bytes. Scripts available via bash({dir}/scripts/<name>). References via read({dir}/references/<name>).)"),
    ("render.omitted", "(... {count} more)"),
    ("render.already_loaded", "(Skill \"{name}\" is already active in this session. Body was loaded at turn {turn}. No new content was added.)"),
    ("render.not_found", "(No skill matches \"{name}\".{did_you_mean} Run with a listed name from the catalog.)"),
    ("render.did_you_mean", " Did you mean: {siblings}?"),
    // The tool description (§2.2, R9).
    ("catalog.guidance", "Activate an installed skill by name. A skill is a reusable package of instructions, optional scripts, and reference docs, authored as a folder at skill-name/SKILL.md. Activating loads the skill's body into the conversation for the rest of the session.\n\nWhen to use. Activate a skill when the user's request matches its description. The catalog of installed skills, each with name and short description, is listed below. If two skills plausibly apply, pick the one whose description most precisely matches.\n\nIdempotence. Activating the same skill twice in one session is a no-op: the body is already loaded. The tool returns an already_loaded marker so you know the content is still in context.\n\nArguments. Pass arguments as a string for positional skills (those declaring $ARGUMENTS or $1 / $2) or as a JSON object for skills that declare named arguments in frontmatter. Run without arguments if the skill doesn't need them.\n\nPermission. Activation runs through the session's permission hook. A skill's allowed-tools frontmatter is an advisory declaration of what tools it expects to need: it does not pre-approve anything; downstream tool calls still pass the session's permission hook."),
    ("catalog.user_only", " user-only=\"true\""),
    ("catalog.cut", "{head}…"),
];

/// The template of `id`. Panics on an unknown id: that is a bug in this crate, caught by its tests.
pub fn template(id: &str) -> &'static str {
    TABLE.iter().find(|(k, _)| *k == id).map(|(_, t)| *t).unwrap_or_else(|| panic!("no message template {id}"))
}

/// Render `template` with `args`: each `{word}` naming an argument is replaced, everything else is kept.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}');
        let value = close.and_then(|c| args.iter().find(|(k, _)| *k == &after[..c]).map(|(_, v)| (c, *v)));
        match value {
            Some((c, v)) => {
                out.push_str(v);
                rest = &after[c + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The message `id` filled with `args`.
pub fn msg(id: &str, args: &[(&str, &str)]) -> String {
    fill(template(id), args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_named_placeholders_and_keeps_other_braces() {
        assert_eq!(fill("e.g. {{example}}.", &[("example", "\"a\": \"...\"")]), "e.g. {\"a\": \"...\"}.");
        assert_eq!(fill("{\"name\": x} {name}", &[("name", "hi")]), "{\"name\": x} hi");
        assert_eq!(fill("{missing} {", &[]), "{missing} {");
    }

    #[test]
    fn every_id_used_exists() {
        for (id, _) in TABLE {
            assert!(!template(id).is_empty());
        }
    }
}
