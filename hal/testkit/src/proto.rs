//! Protobuf messages read by their `.proto` text, for tests that check a
//! writer against a schema it was not built from: a reader of the parts of
//! proto2/proto3 that message definitions use (messages, nested messages,
//! enums, oneofs, field options) and a wire decoder that names each field
//! and value by the schema. A field number the schema does not have, or a
//! wire type its field's type does not take, is an error.
//!
//! [`perfetto`] loads Perfetto's own `.proto` files, shipped unchanged in
//! `hal/perfetto/protos/`.

use std::collections::HashMap;
use std::path::Path;

/// A field of a message, as its `.proto` declares it.
#[derive(Clone, Debug)]
struct Field {
    name: String,
    number: u32,
    /// The type as written (`uint64`, `Clock`, `.perfetto.protos.X`).
    ty: String,
    repeated: bool,
    /// The message the field is declared in (type names resolve from it).
    scope: String,
}

/// The messages and enums of some `.proto` files, by name without the
/// package (`TracePacket`, `ClockSnapshot.Clock`).
#[derive(Debug, Default)]
pub struct Schema {
    messages: HashMap<String, Vec<Field>>,
    enums: HashMap<String, Vec<(String, i64)>>,
}

/// A decoded value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer or bool field (sint fields unzigzagged; negative values
    /// as their 64-bit two's complement).
    Int(u64),
    /// An enum field: the number and its name in the schema, if any.
    Enum(i64, Option<String>),
    /// `double`.
    Double(f64),
    /// `float`.
    Float(f32),
    /// `fixed64`, `sfixed64`.
    Fixed64(u64),
    /// `fixed32`, `sfixed32`.
    Fixed32(u32),
    /// `string` (as bytes; [`Message::str`] reads it as UTF-8) or `bytes`.
    Bytes(Vec<u8>),
    /// A message.
    Message(Message),
}

/// A decoded message: its fields by name, in wire order.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The message type's name in the schema.
    pub type_name: String,
    /// Each field met, with its value (a repeated field once per value).
    pub fields: Vec<(String, Value)>,
    /// The names the schema gives this type's fields.
    known: Vec<String>,
}

const SCALARS: [&str; 15] = [
    "double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
    "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes",
];

/// What a field's type is on the wire.
enum Kind<'a> {
    Scalar(&'a str),
    Enum(&'a str),
    Message(&'a str),
}

impl Schema {
    /// The schema of `files` (paths under `root`, as their imports name
    /// them). Panics with the file and the reason when one does not read
    /// or parse (this is for tests).
    pub fn load(root: &Path, files: &[&str]) -> Schema {
        let mut s = Schema::default();
        for f in files {
            let path = root.join(f);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            s.add(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        s
    }

    /// Add the definitions of one `.proto` text.
    pub fn add(&mut self, text: &str) -> Result<(), String> {
        let tokens = tokens(text);
        let mut p = Parser { t: &tokens, at: 0 };
        while let Some(w) = p.next() {
            match w {
                "message" => self.message(&mut p, "")?,
                "enum" => self.enumeration(&mut p, "")?,
                "extend" | "service" => p.skip_block()?,
                ";" => {}
                _ => p.skip_statement(),
            }
        }
        Ok(())
    }

    fn message(&mut self, p: &mut Parser<'_>, prefix: &str) -> Result<(), String> {
        let name = p.word()?;
        let full = join(prefix, name);
        p.expect("{")?;
        let mut fields = Vec::new();
        loop {
            match p.peek().ok_or("unexpected end in a message")? {
                "}" => {
                    p.next();
                    break;
                }
                "message" => {
                    p.next();
                    self.message(p, &full)?;
                }
                "enum" => {
                    p.next();
                    self.enumeration(p, &full)?;
                }
                "oneof" => {
                    p.next();
                    p.word()?;
                    p.expect("{")?;
                    while p.peek() != Some("}") {
                        if p.peek() == Some("option") {
                            p.skip_statement();
                        } else {
                            fields.push(p.field(&full)?);
                        }
                    }
                    p.next();
                }
                "extend" => {
                    p.next();
                    p.skip_block()?;
                }
                "reserved" | "option" | "extensions" => p.skip_statement(),
                ";" => {
                    p.next();
                }
                _ if p.peek() == Some("map") || p.peek_at(1) == Some("map") => p.skip_statement(),
                _ => fields.push(p.field(&full)?),
            }
        }
        self.messages.insert(full, fields);
        Ok(())
    }

    fn enumeration(&mut self, p: &mut Parser<'_>, prefix: &str) -> Result<(), String> {
        let name = p.word()?;
        p.expect("{")?;
        let mut values = Vec::new();
        loop {
            match p.next().ok_or("unexpected end in an enum")? {
                "}" => break,
                "option" | "reserved" => {
                    p.at -= 1;
                    p.skip_statement();
                }
                ";" => {}
                v => {
                    p.expect("=")?;
                    let n = p.word()?;
                    let n: i64 = parse_int(n).ok_or_else(|| format!("enum value {v} = {n}"))?;
                    values.push((v.to_string(), n));
                    p.skip_statement();
                }
            }
        }
        self.enums.insert(join(prefix, name), values);
        Ok(())
    }

    /// The full name `ty` means from inside message `scope`.
    fn resolve<'a>(&'a self, scope: &str, ty: &'a str) -> Option<Kind<'a>> {
        if let Some(s) = SCALARS.iter().find(|s| **s == ty) {
            return Some(Kind::Scalar(s));
        }
        let ty = ty.trim_start_matches('.');
        let ty = ty.strip_prefix("perfetto.protos.").unwrap_or(ty);
        let found = |full: &str| {
            if let Some((k, _)) = self.messages.get_key_value(full) {
                Some(Kind::Message(k.as_str()))
            } else {
                self.enums
                    .get_key_value(full)
                    .map(|(k, _)| Kind::Enum(k.as_str()))
            }
        };
        let mut s = scope;
        loop {
            if let Some(k) = found(&join(s, ty)) {
                return Some(k);
            }
            if s.is_empty() {
                return None;
            }
            s = s.rsplit_once('.').map_or("", |(a, _)| a);
        }
    }

    /// Decode `bytes` as a message of type `type_name`.
    pub fn decode(&self, type_name: &str, bytes: &[u8]) -> Result<Message, String> {
        self.decode_as(type_name, bytes, false)
    }

    /// [`Schema::decode`], or with `lenient` a field whose number or type
    /// the schema lacks kept undecoded (by its wire type: [`Value::Int`],
    /// [`Value::Fixed64`], [`Value::Fixed32`] or [`Value::Bytes`]; named
    /// `#N` when its number is unknown) instead of an error.
    fn decode_as(&self, type_name: &str, bytes: &[u8], lenient: bool) -> Result<Message, String> {
        let fields = self
            .messages
            .get(type_name)
            .ok_or_else(|| format!("no message {type_name} in the schema"))?;
        let mut m = Message {
            type_name: type_name.to_string(),
            fields: Vec::new(),
            known: fields.iter().map(|f| f.name.clone()).collect(),
        };
        let mut r = Wire { b: bytes, at: 0 };
        while !r.done() {
            let tag = r.varint()?;
            let (number, wire) = ((tag >> 3) as u32, tag & 7);
            let raw = |r: &mut Wire<'_>| -> Result<Value, String> {
                Ok(match wire {
                    0 => Value::Int(r.varint()?),
                    1 => Value::Fixed64(r.fixed64()?),
                    5 => Value::Fixed32(r.fixed32()?),
                    2 => Value::Bytes(r.bytes()?.to_vec()),
                    _ => return Err(format!("{type_name}: field {number}: wire type {wire}")),
                })
            };
            let Some(f) = fields.iter().find(|f| f.number == number) else {
                if lenient {
                    m.fields.push((format!("#{number}"), raw(&mut r)?));
                    continue;
                }
                return Err(format!(
                    "{type_name}: field number {number} is not in the schema"
                ));
            };
            let Some(kind) = self.resolve(&f.scope, &f.ty) else {
                if lenient {
                    m.fields.push((f.name.clone(), raw(&mut r)?));
                    continue;
                }
                return Err(format!(
                    "{type_name}.{}: type {} is not in the schema",
                    f.name, f.ty
                ));
            };
            let what = || format!("{type_name}.{} ({}): wire type {wire}", f.name, f.ty);
            let one = |r: &mut Wire<'_>, wire: u64| -> Result<Value, String> {
                Ok(match (&kind, wire) {
                    (Kind::Enum(e), 0) => {
                        let n = r.varint()? as i64;
                        let name = self
                            .enums
                            .get(*e)
                            .and_then(|v| v.iter().find(|(_, x)| *x == n).map(|(s, _)| s.clone()));
                        Value::Enum(n, name)
                    }
                    (Kind::Scalar("sint32" | "sint64"), 0) => {
                        let z = r.varint()?;
                        Value::Int(((z >> 1) as i64 ^ -((z & 1) as i64)) as u64)
                    }
                    (Kind::Scalar("int32" | "int64" | "uint32" | "uint64" | "bool"), 0) => {
                        Value::Int(r.varint()?)
                    }
                    (Kind::Scalar("double"), 1) => Value::Double(f64::from_bits(r.fixed64()?)),
                    (Kind::Scalar("fixed64" | "sfixed64"), 1) => Value::Fixed64(r.fixed64()?),
                    (Kind::Scalar("float"), 5) => Value::Float(f32::from_bits(r.fixed32()?)),
                    (Kind::Scalar("fixed32" | "sfixed32"), 5) => Value::Fixed32(r.fixed32()?),
                    (Kind::Scalar("string" | "bytes"), 2) => Value::Bytes(r.bytes()?.to_vec()),
                    (Kind::Message(t), 2) => {
                        Value::Message(self.decode_as(t, r.bytes()?, lenient)?)
                    }
                    _ => return Err(what()),
                })
            };
            let packable = matches!(kind, Kind::Enum(_))
                || matches!(kind, Kind::Scalar(s) if !matches!(s, "string" | "bytes"));
            if wire == 2 && f.repeated && packable {
                // Packed: the values back to back, each with the field's
                // own wire type.
                let inner = match kind {
                    Kind::Scalar("double" | "fixed64" | "sfixed64") => 1,
                    Kind::Scalar("float" | "fixed32" | "sfixed32") => 5,
                    _ => 0,
                };
                let mut p = Wire {
                    b: r.bytes()?,
                    at: 0,
                };
                while !p.done() {
                    m.fields.push((f.name.clone(), one(&mut p, inner)?));
                }
            } else {
                m.fields.push((f.name.clone(), one(&mut r, wire)?));
            }
        }
        Ok(m)
    }
}

impl Message {
    fn check(&self, name: &str) {
        assert!(
            self.known.iter().any(|k| k == name),
            "{} has no field `{name}` in the schema",
            self.type_name
        );
    }

    /// Every value of field `name` (panics when the schema has no such
    /// field: a test's typo is not an absent field).
    pub fn all(&self, name: &str) -> impl Iterator<Item = &Value> + '_ {
        self.check(name);
        let name = name.to_string();
        self.fields
            .iter()
            .filter(move |(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    /// The last value of field `name` (a singular field's value).
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.all(name).last()
    }

    /// Field `name` is present.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// An integer field.
    pub fn u64(&self, name: &str) -> Option<u64> {
        match self.get(name)? {
            Value::Int(v) | Value::Fixed64(v) => Some(*v),
            Value::Fixed32(v) => Some(u64::from(*v)),
            Value::Enum(v, _) => Some(*v as u64),
            _ => None,
        }
    }

    /// A signed integer field.
    pub fn i64(&self, name: &str) -> Option<i64> {
        self.u64(name).map(|v| v as i64)
    }

    /// A floating-point field.
    pub fn f64(&self, name: &str) -> Option<f64> {
        match self.get(name)? {
            Value::Double(v) => Some(*v),
            Value::Float(v) => Some(f64::from(*v)),
            _ => None,
        }
    }

    /// A string field.
    pub fn str(&self, name: &str) -> Option<&str> {
        match self.get(name)? {
            Value::Bytes(b) => std::str::from_utf8(b).ok(),
            _ => None,
        }
    }

    /// A message field.
    pub fn msg(&self, name: &str) -> Option<&Message> {
        match self.get(name)? {
            Value::Message(m) => Some(m),
            _ => None,
        }
    }

    /// Every message of a repeated message field.
    pub fn msgs(&self, name: &str) -> Vec<&Message> {
        self.all(name)
            .filter_map(|v| match v {
                Value::Message(m) => Some(m),
                _ => None,
            })
            .collect()
    }

    /// The names of a (repeated) enum field's values (`?N` for a number
    /// the schema does not name).
    pub fn enum_names(&self, name: &str) -> Vec<String> {
        self.all(name)
            .filter_map(|v| match v {
                Value::Enum(n, s) => Some(s.clone().unwrap_or_else(|| format!("?{n}"))),
                _ => None,
            })
            .collect()
    }
}

/// Perfetto's trace schema: the `.proto` files of the messages perfregs
/// writes, from `hal/perfetto/protos/` (Perfetto v51, unchanged).
pub fn perfetto() -> Schema {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../perfetto/protos");
    Schema::load(
        &root,
        &[
            "perfetto/trace/trace.proto",
            "perfetto/trace/trace_packet.proto",
            "perfetto/common/builtin_clock.proto",
            "perfetto/trace/clock_snapshot.proto",
            "perfetto/trace/gpu/gpu_counter_event.proto",
            "perfetto/common/gpu_counter_descriptor.proto",
            "perfetto/trace/track_event/track_event.proto",
            "perfetto/trace/track_event/track_descriptor.proto",
            "perfetto/trace/track_event/debug_annotation.proto",
        ],
    )
}

/// The packets of a Perfetto trace, decoded by [`perfetto`]'s schema;
/// panics with the reason when the bytes do not decode.
pub fn perfetto_packets(bytes: &[u8]) -> Vec<Message> {
    let trace = perfetto()
        .decode("Trace", bytes)
        .unwrap_or_else(|e| panic!("not a trace by Perfetto's protos: {e}"));
    trace.msgs("packet").into_iter().cloned().collect()
}

/// The trusted packet sequence id of a tracing service's own packets
/// (Perfetto's `kServicePacketSequenceID`, `tracing_service_impl.cc`).
pub const SERVICE_SEQUENCE_ID: u64 = 1;

/// The packets of a trace that a tracing service wrote (`traced`, an SDK's
/// in-process session), decoded as [`perfetto_packets`] does, except the
/// service's own (sequence [`SERVICE_SEQUENCE_ID`]: its trace config,
/// stats, clock snapshots, system info), which hold messages of files not
/// shipped here and fields newer than them: those are decoded leniently, a
/// field whose number or type the schema lacks kept undecoded (named `#N`
/// for an unknown number). Panics with the reason when a packet of another
/// sequence does not decode strictly.
pub fn perfetto_session_packets(bytes: &[u8]) -> Vec<Message> {
    let schema = perfetto();
    let mut r = Wire { b: bytes, at: 0 };
    let mut out = Vec::new();
    while !r.done() {
        let tag = r.varint().unwrap_or_else(|e| panic!("not a trace: {e}"));
        assert_eq!(
            tag, 0x0a,
            "not a trace: a field other than `packet` (tag {tag:#x})"
        );
        let packet = r.bytes().unwrap_or_else(|e| panic!("not a trace: {e}"));
        let lenient = schema
            .decode_as("TracePacket", packet, true)
            .unwrap_or_else(|e| panic!("not a trace packet: {e}"));
        if lenient.u64("trusted_packet_sequence_id") == Some(SERVICE_SEQUENCE_ID) {
            out.push(lenient);
        } else {
            out.push(
                schema
                    .decode("TracePacket", packet)
                    .unwrap_or_else(|e| panic!("a producer's packet, by Perfetto's protos: {e}")),
            );
        }
    }
    out
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

fn parse_int(t: &str) -> Option<i64> {
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => t.parse().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// The tokens of a `.proto` text: words (letters, digits, `_`, `.`, `-`),
/// quoted strings, and single punctuation characters; comments dropped.
fn tokens(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            i += 2;
            while i < c.len() && !(c[i] == '*' && c.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if ch == '"' || ch == '\'' {
            let start = i;
            i += 1;
            while i < c.len() && c[i] != ch {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(c[start..i.min(c.len())].iter().collect());
        } else if ch.is_alphanumeric() || "_.-+".contains(ch) {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || "_.-+".contains(c[i])) {
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        } else {
            out.push(ch.to_string());
            i += 1;
        }
    }
    out
}

struct Parser<'a> {
    t: &'a [String],
    at: usize,
}

impl<'a> Parser<'a> {
    fn next(&mut self) -> Option<&'a str> {
        let w = self.t.get(self.at)?;
        self.at += 1;
        Some(w.as_str())
    }
    fn peek(&self) -> Option<&'a str> {
        self.peek_at(0)
    }
    fn peek_at(&self, k: usize) -> Option<&'a str> {
        self.t.get(self.at + k).map(String::as_str)
    }
    fn word(&mut self) -> Result<&'a str, String> {
        self.next().ok_or_else(|| "unexpected end".to_string())
    }
    fn expect(&mut self, w: &str) -> Result<(), String> {
        match self.next() {
            Some(x) if x == w => Ok(()),
            other => Err(format!("expected `{w}`, found {other:?}")),
        }
    }
    /// Past the next `;` at this nesting level (a `{...}` block skipped).
    fn skip_statement(&mut self) {
        let mut depth = 0usize;
        while let Some(w) = self.next() {
            match w {
                "{" | "[" | "(" => depth += 1,
                "}" | "]" | ")" => depth = depth.saturating_sub(1),
                ";" if depth == 0 => return,
                _ => {}
            }
        }
    }
    /// Past a name and its `{...}` block.
    fn skip_block(&mut self) -> Result<(), String> {
        while self.peek().is_some_and(|w| w != "{") {
            self.next();
        }
        self.expect("{")?;
        let mut depth = 1;
        while depth > 0 {
            match self.next().ok_or("unexpected end in a block")? {
                "{" => depth += 1,
                "}" => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }
    /// `[label] TYPE NAME = NUMBER [options];`.
    fn field(&mut self, scope: &str) -> Result<Field, String> {
        let mut w = self.word()?;
        let mut repeated = false;
        if matches!(w, "optional" | "required" | "repeated") {
            repeated = w == "repeated";
            w = self.word()?;
        }
        let ty = w.to_string();
        let name = self.word()?.to_string();
        self.expect("=")?;
        let n = self.word()?;
        let number = parse_int(n)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| format!("{scope}.{name}: field number `{n}`"))?;
        self.skip_statement();
        Ok(Field {
            name,
            number,
            ty,
            repeated,
            scope: scope.to_string(),
        })
    }
}

struct Wire<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Wire<'a> {
    fn done(&self) -> bool {
        self.at >= self.b.len()
    }
    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let byte = *self.b.get(self.at).ok_or("a varint cut short")?;
            self.at += 1;
            if shift < 64 {
                v |= u64::from(byte & 0x7F) << shift;
            }
            if byte & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a varint longer than 10 bytes".into())
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|e| *e <= self.b.len());
        let end = end.ok_or_else(|| format!("{n} bytes past the end"))?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn fixed64(&mut self) -> Result<u64, String> {
        let s = self.take(8)?;
        Ok(u64::from_le_bytes(s.try_into().map_err(|_| "8 bytes")?))
    }
    fn fixed32(&mut self) -> Result<u32, String> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes(s.try_into().map_err(|_| "4 bytes")?))
    }
    fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.varint()?;
        self.take(usize::try_from(n).map_err(|_| "a length beyond memory")?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"
        syntax = "proto2";
        package perfetto.protos;
        import "x.proto";
        // A comment { with braces }
        message Outer {
          /* block
             comment */
          message Inner { optional uint32 id = 1; optional sint64 delta = 2; }
          enum Kind { KIND_A = 0; KIND_B = 3 [deprecated = true]; }
          optional Inner inner = 4;
          repeated Kind kinds = 5;
          repeated uint64 packed = 6 [packed = true];
          oneof value { double d = 7; string s = 8; }
          reserved 9, 10;
          map<string, int32> m = 11;
          optional .perfetto.protos.Outer.Inner again = 12;
        }
    "#;

    fn schema() -> Schema {
        let mut s = Schema::default();
        s.add(TEXT).expect("parses");
        s
    }

    #[test]
    fn fields_are_named_by_the_schema() {
        let s = schema();
        // inner{id=7, delta=-2}, kinds=3, kinds=1, packed [1, 300], d=0.5, s="hi", again{id=1}
        let bytes = [
            0x22, 0x04, 0x08, 0x07, 0x10, 0x03, // 4: Inner {1: 7, 2: zigzag(-2) = 3}
            0x28, 0x03, 0x28, 0x01, // 5: 3, 5: 1
            0x32, 0x03, 0x01, 0xAC, 0x02, // 6: packed [1, 300]
            0x39, 0, 0, 0, 0, 0, 0, 0xE0, 0x3F, // 7: 0.5
            0x42, 0x02, b'h', b'i', // 8: "hi"
            0x62, 0x02, 0x08, 0x01, // 12: Inner {1: 1}
        ];
        let m = s.decode("Outer", &bytes).expect("decodes");
        let inner = m.msg("inner").expect("inner");
        assert_eq!(inner.u64("id"), Some(7));
        assert_eq!(inner.i64("delta"), Some(-2));
        assert_eq!(m.enum_names("kinds"), ["KIND_B", "?1"]);
        let packed: Vec<_> = m.all("packed").cloned().collect();
        assert_eq!(packed, [Value::Int(1), Value::Int(300)]);
        assert_eq!(m.f64("d"), Some(0.5));
        assert_eq!(m.str("s"), Some("hi"));
        assert_eq!(m.msg("again").and_then(|a| a.u64("id")), Some(1));
    }

    #[test]
    fn unknown_numbers_and_wrong_wire_types_are_errors() {
        let s = schema();
        let e = s.decode("Outer", &[0x48, 0x01]).expect_err("9 is reserved");
        assert!(e.contains("field number 9 is not in the schema"), "{e}");
        let e = s
            .decode("Outer", &[0x25, 0, 0, 0, 0])
            .expect_err("fixed32 inner");
        assert!(e.contains("Outer.inner (Inner): wire type 5"), "{e}");
        let e = s
            .decode("Outer", &[0x22, 0x05, 0x08])
            .expect_err("cut short");
        assert!(e.contains("past the end"), "{e}");
        assert!(s.decode("Nope", &[]).is_err());
    }

    #[test]
    fn lenient_keeps_what_the_schema_lacks_undecoded() {
        let s = schema();
        // 9 (no such field): varint 1; 12 (Inner) holding 5 (no such field): "x".
        let bytes = [0x48, 0x01, 0x62, 0x03, 0x2a, 0x01, b'x'];
        assert!(s.decode("Outer", &bytes).is_err());
        let m = s.decode_as("Outer", &bytes, true).expect("lenient");
        assert_eq!(m.fields[0], ("#9".to_string(), Value::Int(1)));
        let again = m.msg("again").expect("decoded");
        assert_eq!(
            again.fields[0],
            ("#5".to_string(), Value::Bytes(b"x".to_vec()))
        );
        // A type the schema lacks, with its own wire type.
        let mut s = Schema::default();
        s.add("message M { optional Missing m = 1; }")
            .expect("parses");
        let m = s
            .decode_as("M", &[0x0a, 0x01, 0x08], true)
            .expect("lenient");
        assert_eq!(m.fields[0], ("m".to_string(), Value::Bytes(vec![0x08])));
        assert!(s.decode("M", &[0x0a, 0x01, 0x08]).is_err());
    }

    #[test]
    fn session_packets_are_strict_off_the_service_sequence() {
        // Packet 1: sequence 1 (the service's) with field 124 (not in v51);
        // packet 2: sequence 2 with a timestamp.
        let bytes = [
            0x0a, 0x05, 0x50, 0x01, 0xe2, 0x07, 0x00, 0x0a, 0x04, 0x50, 0x02, 0x40, 0x07,
        ];
        let p = perfetto_session_packets(&bytes);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].fields[1].0, "#124");
        assert_eq!(p[1].u64("timestamp"), Some(7));
        let bad = [0x0a, 0x05, 0x50, 0x02, 0xe2, 0x07, 0x00];
        let e = std::panic::catch_unwind(|| perfetto_session_packets(&bad)).expect_err("strict");
        let e = e.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(e.contains("field number 124 is not in the schema"), "{e}");
    }

    #[test]
    #[should_panic(expected = "Outer has no field `kind`")]
    fn a_misspelt_field_is_a_failure_not_an_absence() {
        let m = schema().decode("Outer", &[]).expect("empty");
        m.has("kind");
    }

    #[test]
    fn perfettos_protos_load() {
        let s = perfetto();
        for t in [
            "Trace",
            "TracePacket",
            "ClockSnapshot.Clock",
            "GpuCounterEvent.GpuCounter",
            "GpuCounterDescriptor.GpuCounterSpec",
            "TrackEvent",
            "TrackDescriptor",
            "DebugAnnotation",
        ] {
            assert!(s.messages.contains_key(t), "{t}");
        }
        let packet = &s.messages["TracePacket"];
        let number = |n: &str| packet.iter().find(|f| f.name == n).map(|f| f.number);
        assert_eq!(number("timestamp"), Some(8));
        assert_eq!(number("gpu_counter_event"), Some(52));
        assert!(s.enums["BuiltinClock"]
            .iter()
            .any(|(n, v)| n == "BUILTIN_CLOCK_MONOTONIC" && *v == 3));
    }
}
