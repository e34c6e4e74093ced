//! The stdio driver (conformance/PROTOCOL.md): newline-delimited JSON-RPC 2.0 on stdin/stdout, serving
//! this crate's sessions to the conformance kit. Requests are served one at a time in arrival order, so
//! answers follow call order (§12, R7). While a call waits on `permission/ask`, requests read meanwhile
//! are queued and served afterwards. stdout carries protocol lines only; diagnostics go to stderr.
use serde_json::{json, Value};
use skill_tool::{
    lone, Invocation, Session, SessionConfig, IMPLEMENTATION_NAME, IMPLEMENTATION_VERSION,
    SPEC_VERSION,
};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, Write};
use std::rc::Rc;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const INTERNAL_ERROR: i64 = -32603;
const UNKNOWN_SESSION: i64 = -32001;
const NOT_INITIALIZED: i64 = -32002;

/// The two ends of the pipe, plus requests read while a permission/ask was outstanding.
struct Wire {
    input: Box<dyn BufRead>,
    pending: VecDeque<Value>,
    asks: u64,
}

impl Wire {
    fn send(&self, message: &Value) {
        self.send_parts(&[&serde_json::to_string(message).expect("JSON serialises")]);
    }

    /// One line made of `parts`, written in turn: a large result already serialised is not copied again.
    fn send_parts(&self, parts: &[&str]) {
        let mut out = std::io::stdout().lock();
        // A broken pipe means the kit went away: nothing left to do but stop.
        let written = parts
            .iter()
            .try_for_each(|p| out.write_all(lone::json_out(p).as_bytes()))
            .and_then(|_| out.write_all(b"\n"));
        if written.and_then(|_| out.flush()).is_err() {
            std::process::exit(0);
        }
    }

    /// The next message from the kit: JSON, or an error answer already sent for a bad line. None at EOF.
    fn read(&mut self) -> Option<Result<Value, ()>> {
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let text = line.trim_end_matches(['\n', '\r']);
                if text.trim().is_empty() {
                    return Some(Err(()));
                }
                // A lone surrogate (R147) is carried as its stand-in (lone.rs, X10): serde_json refuses the escape.
                match serde_json::from_str::<Value>(&lone::json_in(text)) {
                    Ok(v) if v.get("jsonrpc") == Some(&json!("2.0")) && v.is_object() => {
                        Some(Ok(v))
                    }
                    Ok(v) => {
                        let id = v
                            .get("id")
                            .filter(|i| i.is_string() || i.is_number())
                            .cloned()
                            .unwrap_or(Value::Null);
                        self.send(&failure(id, INVALID_REQUEST, "not a JSON-RPC 2.0 message"));
                        Some(Err(()))
                    }
                    Err(_) => {
                        self.send(&failure(Value::Null, PARSE_ERROR, "parse error: not JSON"));
                        Some(Err(()))
                    }
                }
            }
        }
    }

    /// Send permission/ask and wait for its answer; a request read meanwhile is kept for later.
    fn ask(&mut self, session_id: &str, request: &Value) -> Option<String> {
        self.asks += 1;
        let id = json!(format!("ask-{}", self.asks));
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "permission/ask", "params": {"sessionId": session_id, "request": request}}));
        loop {
            let message = match self.read()? {
                Ok(m) => m,
                Err(()) => continue,
            };
            if message.get("method").is_some() {
                self.pending.push_back(message);
                continue;
            }
            if message.get("id") != Some(&id) {
                eprintln!(
                    "warning: response with unknown id {}",
                    message.get("id").unwrap_or(&Value::Null)
                );
                continue;
            }
            // An error answer is a failed hook: fail closed (deny).
            let decision = message.get("result")?.get("decision")?.as_str()?;
            return ["allow", "allow_once", "deny", "ask"]
                .contains(&decision)
                .then(|| decision.to_string());
        }
    }
}

fn failure(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

struct Server {
    wire: Rc<RefCell<Wire>>,
    sessions: HashMap<String, Session>,
    initialized: bool,
    counter: u64,
}

/// A method's result: a JSON value, or JSON text already serialised (the catalog, kept as text).
enum Reply {
    Json(Value),
    Text(Rc<str>),
}

type Answer = Result<Reply, (i64, String)>;

fn invalid(method: &str, why: &str) -> (i64, String) {
    (INVALID_PARAMS, format!("invalid {method} params: {why}"))
}

impl Server {
    fn session(&mut self, params: &Value) -> Result<(String, &mut Session), (i64, String)> {
        let id = params
            .get("sessionId")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("session", "sessionId must be a string"))?
            .to_string();
        match self.sessions.get_mut(&id) {
            Some(s) => Ok((id, s)),
            None => Err((UNKNOWN_SESSION, format!("unknown session {id}"))),
        }
    }

    fn dispatch(&mut self, method: &str, params: &Value) -> Answer {
        if !self.initialized && method != "initialize" {
            return Err((NOT_INITIALIZED, "initialize first".into()));
        }
        if method == "session/catalog" {
            // The catalog goes out as the text it was serialised to once: no Value copy per request.
            return Ok(Reply::Text(self.session(params)?.1.catalog_json()));
        }
        self.dispatch_value(method, params).map(Reply::Json)
    }

    fn dispatch_value(&mut self, method: &str, params: &Value) -> Result<Value, (i64, String)> {
        match method {
            "initialize" => {
                if params.get("specVersion").and_then(Value::as_str) != Some(SPEC_VERSION) {
                    eprintln!(
                        "warning: kit speaks spec {}, this implementation {SPEC_VERSION}",
                        params.get("specVersion").unwrap_or(&Value::Null)
                    );
                }
                self.initialized = true;
                Ok(json!({
                    "implementation": {"name": IMPLEMENTATION_NAME, "version": IMPLEMENTATION_VERSION, "language": "rust"},
                    "specVersion": SPEC_VERSION,
                    "capabilities": {"symlinks": true, "file_modes": true, "user_invocation": true, "permission_hook": true},
                }))
            }
            "session/create" => {
                let config = params
                    .get("config")
                    .ok_or_else(|| invalid(method, "/ must have required property 'config'"))?;
                let config = SessionConfig::from_json(config)
                    .map_err(|e| (INTERNAL_ERROR, format!("session/create threw: {e}")))?;
                self.counter += 1;
                let id = format!("s{}", self.counter);
                let hook: Option<skill_tool::Hook> = if config.hook == Some(true) {
                    let (wire, sid) = (Rc::clone(&self.wire), id.clone());
                    Some(Box::new(move |request: &Value| {
                        wire.borrow_mut().ask(&sid, request)
                    }))
                } else {
                    None
                };
                self.sessions.insert(id.clone(), Session::new(config, hook));
                Ok(json!({"sessionId": id}))
            }
            "skill/call" => {
                let tool_params = params
                    .get("params")
                    .ok_or_else(|| invalid(method, "/ must have required property 'params'"))?
                    .clone();
                let invocation = match params.get("invocation").and_then(Value::as_str) {
                    Some("model") => Invocation::Model,
                    Some("user") => Invocation::User,
                    _ => return Err(invalid(method, "/invocation must be \"model\" or \"user\"")),
                };
                let turn = params.get("turn").and_then(Value::as_u64);
                Ok(self.session(params)?.1.call(&tool_params, invocation, turn))
            }
            "session/close" => {
                let (id, s) = self.session(params)?;
                s.close();
                self.sessions.remove(&id);
                Ok(json!({}))
            }
            "shutdown" => {
                self.sessions.clear();
                Ok(json!({}))
            }
            other => Err((METHOD_NOT_FOUND, format!("method not found: {other}"))),
        }
    }

    fn next(&mut self) -> Option<Result<Value, ()>> {
        let queued = self.wire.borrow_mut().pending.pop_front();
        match queued {
            Some(m) => Some(Ok(m)),
            None => self.wire.borrow_mut().read(),
        }
    }

    fn serve(&mut self) {
        while let Some(message) = self.next() {
            let Ok(message) = message else { continue };
            let (Some(method), Some(id)) = (
                message.get("method").and_then(Value::as_str),
                message.get("id"),
            ) else {
                if message.get("method").is_none() {
                    eprintln!(
                        "warning: response with unknown id {}",
                        message.get("id").unwrap_or(&Value::Null)
                    );
                }
                continue; // a notification, or a stray response: nothing to answer
            };
            let (method, id) = (method.to_string(), id.clone());
            let params = message.get("params").cloned().unwrap_or_else(|| json!({}));
            let answer = self.dispatch(&method, &params);
            match answer {
                Ok(Reply::Json(result)) => self
                    .wire
                    .borrow()
                    .send(&json!({"jsonrpc": "2.0", "id": id, "result": result})),
                Ok(Reply::Text(result)) => self.wire.borrow().send_parts(&[
                    r#"{"jsonrpc":"2.0","id":"#,
                    &id.to_string(),
                    r#","result":"#,
                    &result,
                    "}",
                ]),
                Err((code, text)) => self.wire.borrow().send(&failure(id, code, &text)),
            }
            if method == "shutdown" {
                return;
            }
        }
    }
}

fn main() {
    let wire = Wire {
        input: Box::new(std::io::BufReader::new(std::io::stdin())),
        pending: VecDeque::new(),
        asks: 0,
    };
    let mut server = Server {
        wire: Rc::new(RefCell::new(wire)),
        sessions: HashMap::new(),
        initialized: false,
        counter: 0,
    };
    server.serve();
}
