//! Declaration order from the TypeScript source of a schema (`schema.ts`).
//!
//! `schema.json` is generated from `schema.ts` with every object's properties sorted by name,
//! so `Tool`'s members arrive as `_meta, annotations, description, … name, title`. The
//! TypeScript keeps the order the specification's authors wrote: inherited members first
//! (`interface Tool extends BaseMetadata, Icons` → `name, title, icons, description, …`). This
//! module reads just enough of the TypeScript for that: `export interface` (with `extends`,
//! including `Omit<T, "a" | "b">`) and `export type` (intersections, object literals,
//! references), with the members of nested object literals, so an inline object of the JSON
//! schema (`params: { … }`) has its order too. Everything else (union members, literal
//! types, comments, `const`s) is skipped.
//!
//! The result is an [`Order`]: for a JSON pointer of `schema.json` (`#/$defs/Tool`,
//! `#/$defs/CallToolRequest/properties/params`), the member names in declaration order.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{escape_pointer, unescape_pointer as unescape};
use crate::error::{Error, Result};

/// Member order per declaration, read from a `schema.ts`.
#[derive(Debug, Clone, Default)]
pub struct Order {
    decls: HashMap<String, Ty>,
}

/// A type expression, as far as member order needs it.
#[derive(Debug, Clone, PartialEq)]
enum Ty {
    /// A named type, with its type arguments (`Omit<Base, "error">`).
    Ref(String, Vec<Ty>),
    /// `{ a: …; b?: … }`: members in declaration order.
    Object(Vec<(String, Ty)>),
    /// `T[]`
    Array(Box<Ty>),
    /// `A & B`
    And(Vec<Ty>),
    /// `A | B`
    Or(Vec<Ty>),
    /// A string literal (`"error"`), kept for `Omit`'s keys.
    Str(String),
    /// Anything else (`number`, `typeof X`, a tuple…).
    Other,
}

/// An `interface` is its bases (in `extends` order) and then its own members.
fn interface(bases: Vec<Ty>, own: Vec<(String, Ty)>) -> Ty {
    let mut parts = bases;
    parts.push(Ty::Object(own));
    Ty::And(parts)
}

impl Order {
    /// Reads `schema.ts` text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self> {
        let tokens = lex(text, origin)?;
        let mut p = Parser {
            tokens,
            at: 0,
            origin,
        };
        let mut decls = HashMap::new();
        while !p.done() {
            if p.eat_word("export") {
                if p.eat_word("interface") {
                    let name = p.ident()?;
                    p.skip_type_params()?;
                    let mut bases = Vec::new();
                    if p.eat_word("extends") {
                        loop {
                            bases.push(p.postfix()?);
                            if !p.eat(",") {
                                break;
                            }
                        }
                    }
                    let own = p.object_members()?;
                    decls.insert(name, interface(bases, own));
                    continue;
                }
                if p.eat_word("type") {
                    let name = p.ident()?;
                    p.skip_type_params()?;
                    p.expect("=")?;
                    let ty = p.ty()?;
                    p.eat(";");
                    decls.insert(name, ty);
                    continue;
                }
            }
            // Any other statement (`export const`, imports…): skip to its end at depth 0.
            p.skip_statement();
        }
        Ok(Order { decls })
    }

    /// Whether the source declared nothing this module reads.
    pub fn is_empty(&self) -> bool {
        self.decls.is_empty()
    }

    /// The member names, in declaration order, of the object at `pointer` in the JSON schema
    /// generated from this source: `#/$defs/Tool` or `#/definitions/Tool`, optionally followed
    /// by `/properties/<name>`, `/items`, `/allOf/<i>`, `/anyOf/<i>` steps into inline types.
    /// `None` when the source does not say (no such declaration, or not an object there).
    pub fn members_at(&self, pointer: &str) -> Option<Vec<String>> {
        let mut steps = pointer.strip_prefix('#')?.split('/').skip(1);
        match steps.next()? {
            "$defs" | "definitions" => {}
            _ => return None,
        }
        let name = unescape(steps.next()?);
        let mut ty = self.decls.get(&name)?.clone();
        let steps: Vec<String> = steps.map(unescape).collect();
        let mut i = 0;
        while i < steps.len() {
            ty = match steps[i].as_str() {
                "properties" => {
                    let prop = steps.get(i + 1)?;
                    i += 1;
                    self.member_type(&ty, prop, 0)?
                }
                // `{ [key: string]: T }`: T is not kept; nothing to order below it.
                "additionalProperties" => return None,
                "items" => match self.deref(&ty, 0)? {
                    Ty::Array(item) => *item,
                    _ => return None,
                },
                // An inline `allOf` member or union branch: the same members (the JSON schema
                // splits `A & { … }` into `allOf`), narrowed by nothing we can tell.
                "allOf" | "anyOf" | "oneOf" => {
                    i += 1;
                    ty
                }
                _ => return None,
            };
            i += 1;
        }
        let mut members = self.members(&ty, 0)?;
        // A JSON-RPC message inherits `method` and `params` from `Request` before its own
        // `jsonrpc` and `id`; every SDK writes the envelope first, and so do we.
        if members.iter().any(|m| m == "jsonrpc") {
            let envelope = |m: &String| match m.as_str() {
                "jsonrpc" => 0,
                "id" => 1,
                _ => 2,
            };
            members.sort_by_key(envelope);
        }
        (!members.is_empty()).then_some(members)
    }

    /// Puts the `properties` of every object schema under the definitions of `doc` (a
    /// `schema.json` whose definitions live under `defs_key`) in declaration order. Members
    /// the source does not declare keep their order, after the declared ones. Returns how
    /// many objects changed order.
    pub fn apply(&self, doc: &mut Value, defs_key: &str) -> usize {
        let Some(Value::Object(defs)) = doc.get_mut(defs_key) else {
            return 0;
        };
        let mut changed = 0;
        for (name, schema) in defs.iter_mut() {
            let pointer = format!("#/{defs_key}/{}", escape_pointer(name));
            self.reorder(schema, &pointer, 0, &mut changed);
        }
        changed
    }

    fn reorder(&self, node: &mut Value, pointer: &str, depth: usize, changed: &mut usize) {
        let Value::Object(obj) = node else { return };
        if depth > 64 {
            return;
        }
        if let Some(Value::Object(props)) = obj.get_mut("properties") {
            if let Some(order) = self.members_at(pointer) {
                let rank = |k: &str| order.iter().position(|m| m == k).unwrap_or(usize::MAX);
                let before: Vec<String> = props.keys().cloned().collect();
                let mut entries: Vec<(String, Value)> = std::mem::take(props).into_iter().collect();
                entries.sort_by_key(|(k, _)| rank(k));
                if entries.iter().map(|(k, _)| k).ne(before.iter()) {
                    *changed += 1;
                }
                props.extend(entries);
            }
            for (k, v) in props.iter_mut() {
                let at = format!("{pointer}/properties/{}", escape_pointer(k));
                self.reorder(v, &at, depth + 1, changed);
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(v) = obj.get_mut(key) {
                self.reorder(v, &format!("{pointer}/{key}"), depth + 1, changed);
            }
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = obj.get_mut(key) {
                for (i, v) in branches.iter_mut().enumerate() {
                    self.reorder(v, &format!("{pointer}/{key}/{i}"), depth + 1, changed);
                }
            }
        }
    }

    /// Follows references to a declaration, keeping type arguments aside.
    fn deref(&self, ty: &Ty, depth: usize) -> Option<Ty> {
        if depth > 32 {
            return None;
        }
        match ty {
            Ty::Ref(name, args) if args.is_empty() => self.deref(self.decls.get(name)?, depth + 1),
            other => Some(other.clone()),
        }
    }

    /// The members of an object type, in order: bases first, a member redeclared later keeps
    /// its first place.
    fn members(&self, ty: &Ty, depth: usize) -> Option<Vec<String>> {
        if depth > 32 {
            return None;
        }
        match ty {
            Ty::Object(members) => Some(members.iter().map(|(n, _)| n.clone()).collect()),
            Ty::And(parts) => {
                let mut out: Vec<String> = Vec::new();
                let mut seen = HashSet::new();
                for part in parts {
                    for m in self.members(part, depth + 1).unwrap_or_default() {
                        if seen.insert(m.clone()) {
                            out.push(m);
                        }
                    }
                }
                Some(out)
            }
            Ty::Ref(name, args) => match (name.as_str(), args.as_slice()) {
                ("Omit", [base, keys]) => {
                    let drop = string_literals(keys);
                    let members = self.members(base, depth + 1)?;
                    Some(members.into_iter().filter(|m| !drop.contains(m)).collect())
                }
                ("Partial" | "Required" | "Readonly", [base]) => self.members(base, depth + 1),
                ("Pick", [base, keys]) => {
                    let keep = string_literals(keys);
                    let members = self.members(base, depth + 1)?;
                    Some(members.into_iter().filter(|m| keep.contains(m)).collect())
                }
                (_, []) => self.members(self.decls.get(name)?, depth + 1),
                _ => None,
            },
            _ => None,
        }
    }

    /// The type of member `name` of an object type: the last declaration wins (an interface
    /// narrows what it inherits), as in TypeScript.
    fn member_type(&self, ty: &Ty, name: &str, depth: usize) -> Option<Ty> {
        if depth > 32 {
            return None;
        }
        match ty {
            Ty::Object(members) => members
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, t)| t.clone()),
            Ty::And(parts) => parts
                .iter()
                .rev()
                .find_map(|p| self.member_type(p, name, depth + 1)),
            Ty::Ref(r, args) => match (r.as_str(), args.as_slice()) {
                ("Omit" | "Partial" | "Required" | "Readonly" | "Pick", [base, ..]) => {
                    self.member_type(base, name, depth + 1)
                }
                (_, []) => self.member_type(self.decls.get(r)?, name, depth + 1),
                _ => None,
            },
            // `params?: X | undefined`-like unions: the object branch.
            Ty::Or(branches) => branches
                .iter()
                .find_map(|b| self.member_type(b, name, depth + 1)),
            _ => None,
        }
    }
}

fn string_literals(ty: &Ty) -> HashSet<String> {
    match ty {
        Ty::Str(s) => HashSet::from([s.clone()]),
        Ty::Or(branches) => branches.iter().flat_map(string_literals).collect(),
        _ => HashSet::new(),
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Str(String),
    Punct(char),
    Number,
}

struct Token {
    tok: Tok,
    line: usize,
}

/// Splits TypeScript into words, string literals and punctuation, dropping comments.
fn lex(text: &str, origin: &str) -> Result<Vec<Token>> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut line = 1;
    while let Some((_, c)) = chars.next() {
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            '/' if chars.peek().map(|&(_, n)| n) == Some('/') => {
                for (_, n) in chars.by_ref() {
                    if n == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '/' if chars.peek().map(|&(_, n)| n) == Some('*') => {
                chars.next();
                let start = line;
                let mut prev = ' ';
                let mut closed = false;
                for (_, n) in chars.by_ref() {
                    if n == '\n' {
                        line += 1;
                    }
                    if prev == '*' && n == '/' {
                        closed = true;
                        break;
                    }
                    prev = n;
                }
                if !closed {
                    return Err(ts_error(origin, start, "unterminated comment"));
                }
            }
            '"' | '\'' | '`' => {
                let start = line;
                let mut s = String::new();
                let mut closed = false;
                while let Some((_, n)) = chars.next() {
                    match n {
                        '\\' => {
                            if let Some((_, e)) = chars.next() {
                                s.push(e);
                            }
                        }
                        n if n == c => {
                            closed = true;
                            break;
                        }
                        '\n' => {
                            line += 1;
                            s.push(n);
                        }
                        n => s.push(n),
                    }
                }
                if !closed {
                    return Err(ts_error(origin, start, "unterminated string"));
                }
                out.push(Token {
                    tok: Tok::Str(s),
                    line: start,
                });
            }
            c if c.is_ascii_digit()
                || (c == '-' && chars.peek().is_some_and(|&(_, n)| n.is_ascii_digit())) =>
            {
                while chars
                    .peek()
                    .is_some_and(|&(_, n)| n.is_ascii_alphanumeric() || n == '.' || n == '_')
                {
                    chars.next();
                }
                out.push(Token {
                    tok: Tok::Number,
                    line,
                });
            }
            c if c == '_' || c == '$' || c.is_alphabetic() => {
                let mut w = String::from(c);
                while let Some(&(_, n)) = chars.peek() {
                    if n == '_' || n == '$' || n.is_alphanumeric() {
                        w.push(n);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push(Token {
                    tok: Tok::Word(w),
                    line,
                });
            }
            c => out.push(Token {
                tok: Tok::Punct(c),
                line,
            }),
        }
    }
    Ok(out)
}

fn ts_error(origin: &str, line: usize, message: impl Into<String>) -> Error {
    Error::TypeScript {
        origin: origin.to_string(),
        line,
        message: message.into(),
    }
}

struct Parser<'a> {
    tokens: Vec<Token>,
    at: usize,
    origin: &'a str,
}

impl Parser<'_> {
    fn done(&self) -> bool {
        self.at >= self.tokens.len()
    }

    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    fn error(&self, message: impl Into<String>) -> Error {
        let line = self
            .tokens
            .get(self.at)
            .or(self.tokens.last())
            .map_or(1, |t| t.line);
        ts_error(self.origin, line, message)
    }

    fn eat(&mut self, punct: &str) -> bool {
        let c = punct.chars().next().expect("one character");
        if self.peek() == Some(&Tok::Punct(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, punct: &str) -> Result<()> {
        if self.eat(punct) {
            Ok(())
        } else {
            Err(self.error(format!("expected `{punct}`")))
        }
    }

    fn eat_word(&mut self, word: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Word(w)) if w == word) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Result<String> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.at += 1;
                Ok(w)
            }
            _ => Err(self.error("expected a name")),
        }
    }

    /// Skips `<T extends X = Y>` after a declared name.
    fn skip_type_params(&mut self) -> Result<()> {
        if self.peek() == Some(&Tok::Punct('<')) {
            self.skip_balanced()?;
        }
        Ok(())
    }

    /// Skips one bracketed group (`(…)`, `[…]`, `{…}`, `<…>`) starting at the opening
    /// bracket.
    fn skip_balanced(&mut self) -> Result<()> {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                None => return Err(self.error("unbalanced brackets")),
                Some(Tok::Punct('(' | '[' | '{' | '<')) => depth += 1,
                Some(Tok::Punct(')' | ']' | '}' | '>')) => depth -= 1,
                _ => {}
            }
            self.at += 1;
            if depth == 0 {
                return Ok(());
            }
        }
    }

    /// Skips to the end of a statement: its `;` at bracket depth 0, or its closing `}`.
    fn skip_statement(&mut self) {
        let mut depth = 0usize;
        while let Some(t) = self.peek().cloned() {
            self.at += 1;
            match t {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']') => depth = depth.saturating_sub(1),
                Tok::Punct('}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 && !matches!(self.peek(), Some(Tok::Punct(';' | ',' | '.'))) {
                        return;
                    }
                }
                Tok::Punct(';') if depth == 0 => return,
                _ => {}
            }
        }
    }

    /// `{ name?: Type; [key: string]: T; … }`: the named members in order.
    fn object_members(&mut self) -> Result<Vec<(String, Ty)>> {
        self.expect("{")?;
        let mut members = Vec::new();
        loop {
            if self.eat("}") {
                return Ok(members);
            }
            if self.done() {
                return Err(self.error("unterminated object type"));
            }
            // An index signature `[key: string]: T` declares no member.
            if self.peek() == Some(&Tok::Punct('[')) {
                self.skip_balanced()?;
                self.expect(":")?;
                self.ty()?;
            } else {
                self.eat_word("readonly");
                let name = match self.peek() {
                    Some(Tok::Word(w)) | Some(Tok::Str(w)) => w.clone(),
                    _ => return Err(self.error("expected a member name")),
                };
                self.at += 1;
                self.eat("?");
                if self.peek() == Some(&Tok::Punct('(')) {
                    return Err(self.error(format!("method signature `{name}(…)` in a type")));
                }
                self.expect(":")?;
                let ty = self.ty()?;
                members.push((name, ty));
            }
            if !self.eat(";") && !self.eat(",") && self.peek() != Some(&Tok::Punct('}')) {
                return Err(self.error("expected `;` or `}` after a member"));
            }
        }
    }

    /// A union of intersections.
    fn ty(&mut self) -> Result<Ty> {
        self.eat("|");
        let mut branches = vec![self.intersection()?];
        while self.eat("|") {
            branches.push(self.intersection()?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().expect("one")
        } else {
            Ty::Or(branches)
        })
    }

    fn intersection(&mut self) -> Result<Ty> {
        self.eat("&");
        let mut parts = vec![self.postfix()?];
        while self.eat("&") {
            parts.push(self.postfix()?);
        }
        Ok(if parts.len() == 1 {
            parts.pop().expect("one")
        } else {
            Ty::And(parts)
        })
    }

    /// A primary type followed by any number of `[]`.
    fn postfix(&mut self) -> Result<Ty> {
        let mut ty = self.primary()?;
        while self.peek() == Some(&Tok::Punct('['))
            && self.tokens.get(self.at + 1).map(|t| &t.tok) == Some(&Tok::Punct(']'))
        {
            self.at += 2;
            ty = Ty::Array(Box::new(ty));
        }
        Ok(ty)
    }

    fn primary(&mut self) -> Result<Ty> {
        match self.peek().cloned() {
            Some(Tok::Punct('{')) => Ok(Ty::Object(self.object_members()?)),
            Some(Tok::Punct('(')) => {
                self.at += 1;
                let ty = self.ty()?;
                self.expect(")")?;
                Ok(ty)
            }
            Some(Tok::Punct('[')) => {
                self.skip_balanced()?;
                Ok(Ty::Other)
            }
            Some(Tok::Str(s)) => {
                self.at += 1;
                Ok(Ty::Str(s))
            }
            Some(Tok::Number) => {
                self.at += 1;
                Ok(Ty::Other)
            }
            Some(Tok::Word(w)) if w == "typeof" || w == "keyof" => {
                self.at += 1;
                self.postfix()?;
                Ok(Ty::Other)
            }
            Some(Tok::Word(w)) => {
                self.at += 1;
                let mut name = w;
                // Qualified names: `Foo.Bar`.
                while self.eat(".") {
                    name.push('.');
                    name.push_str(&self.ident()?);
                }
                let mut args = Vec::new();
                if self.eat("<") {
                    loop {
                        args.push(self.ty()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                    self.expect(">")?;
                }
                Ok(Ty::Ref(name, args))
            }
            _ => Err(self.error("expected a type")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(ts: &str) -> Order {
        Order::parse(ts, "test.ts").unwrap()
    }

    #[test]
    fn inherited_members_come_first_and_keep_their_place_when_narrowed() {
        let o = order(
            r#"
            /** Base. */
            export interface BaseMetadata { name: string; title?: string; }
            export interface Icons { icons?: Icon[]; }
            export interface Tool extends BaseMetadata, Icons {
              // own members
              description?: string;
              inputSchema: { type: "object"; properties?: { [key: string]: object }; required?: string[] };
              name: string;
            }
            "#,
        );
        assert_eq!(
            o.members_at("#/$defs/Tool").unwrap(),
            ["name", "title", "icons", "description", "inputSchema"]
        );
        assert_eq!(
            o.members_at("#/definitions/Tool/properties/inputSchema")
                .unwrap(),
            ["type", "properties", "required"]
        );
    }

    #[test]
    fn omit_intersections_and_arrays_of_literals() {
        let o = order(
            r#"
            export const CODE = -32042;
            export interface ErrorResponse { jsonrpc: "2.0"; id?: RequestId; error: Error; }
            export interface Error { code: number; message: string; data?: unknown; }
            export interface UrlRequired extends Omit<ErrorResponse, "error"> {
              error: Error & { code: typeof CODE; data: { elicitations: { url: string; id: string }[]; [key: string]: unknown } };
            }
            export type GetTaskResult = Result & Task;
            export interface Result { _meta?: { [key: string]: unknown }; [key: string]: unknown; }
            export interface Task { taskId: string; status: TaskStatus; }
            export type TaskStatus = | "working" | "completed";
            "#,
        );
        assert_eq!(
            o.members_at("#/$defs/UrlRequired").unwrap(),
            ["jsonrpc", "id", "error"]
        );
        assert_eq!(
            o.members_at("#/$defs/UrlRequired/properties/error")
                .unwrap(),
            ["code", "message", "data"]
        );
        assert_eq!(
            o.members_at(
                "#/$defs/UrlRequired/properties/error/properties/data/properties/elicitations/items"
            )
            .unwrap(),
            ["url", "id"]
        );
        assert_eq!(
            o.members_at("#/$defs/GetTaskResult").unwrap(),
            ["_meta", "taskId", "status"]
        );
        assert_eq!(o.members_at("#/$defs/TaskStatus"), None);
        assert_eq!(o.members_at("#/$defs/Missing"), None);
        assert_eq!(o.members_at("#/$defs/Task/properties/nope"), None);
    }

    #[test]
    fn narrowed_members_are_read_from_the_last_declaration() {
        let o = order(
            r#"
            export interface Request { method: string; params?: { [key: string]: any }; }
            export interface JSONRPCRequest extends Request { jsonrpc: "2.0"; id: RequestId; }
            export interface CallToolRequest extends JSONRPCRequest {
              method: "tools/call";
              params: { name: string; arguments?: { [key: string]: unknown } };
            }
            "#,
        );
        // The envelope first, then what `Request` declared.
        assert_eq!(
            o.members_at("#/$defs/CallToolRequest").unwrap(),
            ["jsonrpc", "id", "method", "params"]
        );
        assert_eq!(
            o.members_at("#/$defs/CallToolRequest/properties/params")
                .unwrap(),
            ["name", "arguments"]
        );
    }

    #[test]
    fn apply_orders_every_object_and_keeps_undeclared_members_last() {
        let o = order(
            r#"
            export interface Tool { name: string; inputSchema: { type: "object"; properties?: object }; description?: string; }
            export interface ListToolsResult { tools: Tool[]; nextCursor?: string; }
            "#,
        );
        let mut doc = serde_json::json!({"$defs": {
            "Tool": {"type": "object", "properties": {
                "description": {"type": "string"},
                "extra": {"type": "string"},
                "inputSchema": {"type": "object", "properties": {"properties": {}, "type": {"const": "object"}}},
                "name": {"type": "string"}
            }},
            "ListToolsResult": {"type": "object", "properties": {
                "nextCursor": {"type": "string"},
                "tools": {"type": "array", "items": {"$ref": "#/$defs/Tool"}}
            }},
            "Other": {"type": "object", "properties": {"b": {}, "a": {}}}
        }});
        assert_eq!(o.apply(&mut doc, "$defs"), 3);
        let keys = |v: &Value| {
            v["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(
            keys(&doc["$defs"]["Tool"]),
            ["name", "inputSchema", "description", "extra"]
        );
        assert_eq!(
            keys(&doc["$defs"]["Tool"]["properties"]["inputSchema"]),
            ["type", "properties"]
        );
        assert_eq!(
            keys(&doc["$defs"]["ListToolsResult"]),
            ["tools", "nextCursor"]
        );
        assert_eq!(keys(&doc["$defs"]["Other"]), ["b", "a"]);
        assert_eq!(
            o.apply(&mut doc, "$defs"),
            0,
            "a second pass changes nothing"
        );
    }

    #[test]
    fn errors_name_the_line() {
        let e = Order::parse("export interface A {\n  a: string;\n  b: {\n", "s.ts").unwrap_err();
        assert!(e.to_string().starts_with("s.ts:3: "), "{e}");
        let e = Order::parse("/* open", "s.ts").unwrap_err();
        assert_eq!(e.to_string(), "s.ts:1: unterminated comment");
    }

    #[test]
    fn every_official_schema_ts_reads_and_orders_tool_like_the_spec() {
        let root = crate::source::find_workspace(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
            .expect("workspace");
        for rev in crate::source::revisions() {
            let Ok(json) = crate::source::resolve(rev, None, &root) else {
                continue;
            };
            let path = json.with_file_name("schema.ts");
            let text = std::fs::read_to_string(&path).unwrap();
            let o = Order::parse(&text, &path.display().to_string()).unwrap();
            let tool = o.members_at("#/$defs/Tool").unwrap();
            assert_eq!(tool[0], "name", "{rev}: {tool:?}");
            assert!(
                tool.iter().position(|m| m == "description")
                    < tool.iter().position(|m| m == "inputSchema"),
                "{rev}: {tool:?}"
            );
        }
    }
}
