//! The native host: decode logic over parsed JSON (`serde_json::Value`).
//!
//! Objects are `serde_json::Map`s (sorted keys), so canonical output needs no extra sort.
//! [`Host::share`] is a deep copy here; the JS host is the one that shares references.

use crate::decode::FieldSpec;
use crate::host::{Head, Host, Infallible, Sym, Type, Version};
use serde_json::{Map, Value};

/// Decode logic over `serde_json::Value`, naming keys from one family's symbol table.
pub struct JsonHost {
    symbols: &'static [&'static str],
}

impl JsonHost {
    /// A host for the family whose symbol table is `symbols`.
    pub const fn new(symbols: &'static [&'static str]) -> JsonHost {
        JsonHost { symbols }
    }

    fn text(&self, s: Sym) -> &'static str {
        self.symbols.get(s.0 as usize).copied().unwrap_or("")
    }
}

impl Host for JsonHost {
    type Value = Value;

    fn type_of(&mut self, v: &Value) -> Type {
        match v {
            Value::Null => Type::Null,
            Value::Bool(_) => Type::Bool,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::Array(_) => Type::Array,
            Value::Object(_) => Type::Object,
        }
    }

    fn head(&mut self, v: &Value) -> Head {
        let ty = self.type_of(v);
        let Some(m) = v.as_object() else {
            return Head {
                ty,
                version: Version::Absent,
                kind: None,
            };
        };
        let version = match m.get(self.text(Sym::VERSION)) {
            None => Version::Absent,
            Some(n) => n.as_f64().map_or(Version::NotNumber, Version::Number),
        };
        let kind = m.get(self.text(Sym::KIND)).and_then(Value::as_str).and_then(|s| {
            let i = self.symbols.iter().position(|&t| t == s)?;
            Some(Sym(u8::try_from(i).ok()?))
        });
        Head { ty, version, kind }
    }

    fn get(&mut self, obj: &Value, key: Sym) -> Result<Option<Value>, Infallible> {
        Ok(obj.as_object().and_then(|m| m.get(self.text(key))).cloned())
    }

    fn as_number(&mut self, v: &Value) -> Option<f64> {
        v.as_f64()
    }

    fn which(&mut self, v: &Value, among: &[Sym]) -> Option<usize> {
        let s = v.as_str()?;
        among.iter().position(|&sym| self.text(sym) == s)
    }

    fn first_non_object(&mut self, arr: &Value) -> Result<Option<u32>, Infallible> {
        let items = arr.as_array().map_or(&[][..], Vec::as_slice);
        Ok(items.iter().position(|x| !x.is_object()).map(|i| i as u32))
    }

    fn len(&mut self, arr: &Value) -> Result<u32, Infallible> {
        Ok(arr.as_array().map_or(0, |a| a.len() as u32))
    }

    fn at(&mut self, arr: &Value, i: u32) -> Result<Value, Infallible> {
        Ok(arr
            .as_array()
            .and_then(|a| a.get(i as usize))
            .cloned()
            .unwrap_or(Value::Null))
    }

    fn object(&mut self) -> Value {
        Value::Object(Map::new())
    }

    fn copy_object(&mut self, obj: &Value) -> Result<Value, Infallible> {
        match obj {
            Value::Object(_) => Ok(obj.clone()),
            _ => Ok(Value::Object(Map::new())),
        }
    }

    fn set(&mut self, obj: &mut Value, key: Sym, v: Value) {
        if let Value::Object(m) = obj {
            m.insert(self.text(key).into(), v);
        }
    }

    fn array1(&mut self, v: Value) -> Value {
        Value::Array(vec![v])
    }

    fn array(&mut self) -> Value {
        Value::Array(Vec::new())
    }

    fn push(&mut self, arr: &mut Value, v: Value) {
        if let Value::Array(a) = arr {
            a.push(v);
        }
    }

    fn string(&mut self, s: Sym) -> Value {
        Value::String(self.text(s).into())
    }

    fn number(&mut self, n: f64) -> Value {
        json_number(n)
    }

    fn share(&mut self, v: &Value) -> Value {
        v.clone()
    }

    type Fields = Vec<Option<Value>>;

    fn fields(&mut self, obj: &Value, _: usize, fields: &[FieldSpec]) -> Vec<Option<Value>> {
        let map = obj.as_object();
        fields
            .iter()
            .map(|f| map.and_then(|m| m.get(self.text(f.key))).cloned())
            .collect()
    }

    fn field(&mut self, read: &Vec<Option<Value>>, i: usize) -> Option<(Value, Type)> {
        let v = read.get(i)?.clone()?;
        let ty = self.type_of(&v);
        Some((v, ty))
    }

    fn project(&mut self, _: usize, kind: Sym, fields: &[FieldSpec], read: Vec<Option<Value>>, present: u32) -> Value {
        let mut out = Map::new();
        out.insert(self.text(Sym::KIND).into(), self.string(kind));
        for (i, (f, v)) in fields.iter().zip(read).enumerate() {
            if let (Some(v), true) = (v, present & (1 << i) != 0) {
                out.insert(self.text(f.key).into(), v);
            }
        }
        Value::Object(out)
    }
}

pub use crate::canonical::json_number;
