//! The Agent Skills `skill` tool (skill-tool spec v1) in Rust: the §10 `SkillRegistry` trait with its
//! filesystem default, and the session that validates, gates and renders activations (§2–§12). The
//! contract's tables (limits, aliases) are read from schemas/; all prose lives in `messages`.
pub mod allowed_tools;
pub mod catalog;
pub mod dirfd;
pub mod emit_yaml;
pub mod errors;
pub mod frontmatter;
pub mod jsval;
pub mod limits;
pub mod lone;
pub mod messages;
pub mod params;
pub mod paths;
pub mod registry;
pub mod render;
pub mod resources;
pub mod sensitive;
pub mod session;
pub mod siblings;
pub mod skill_file;
pub mod substitute;
pub mod yaml;

pub use registry::{FilesystemSkillRegistry, LoadedSkill, SkillEntry, SkillRegistry};
pub use session::{Hook, Invocation, Session, SessionConfig};

pub const SPEC_VERSION: &str = "1";
pub const IMPLEMENTATION_NAME: &str = "skill-tool-rust";
pub const IMPLEMENTATION_VERSION: &str = env!("CARGO_PKG_VERSION");
