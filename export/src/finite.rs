//! Find a non-finite number in any serializable value, with the path to it. serde_json writes
//! NaN and infinity as `null`, which no reader of the file can take back as a number, so
//! every JSON export is checked first.

use serde::ser::{self, Impossible, Serialize};
use std::fmt::Display;

/// The first non-finite number of a value and where it is (`parameters[3].estimate.mean_ns`).
#[derive(Debug, Clone, PartialEq)]
pub struct NonFinite {
    pub path: String,
    pub value: f64,
}

/// The first NaN or infinity in `value`, if any; an error only if `value` cannot be serialized.
pub fn first_non_finite<T: Serialize + ?Sized>(value: &T) -> Result<Option<NonFinite>, String> {
    let mut finder = Finder {
        path: Vec::new(),
        found: None,
    };
    match value.serialize(&mut finder) {
        Ok(()) | Err(Stop::Found) => Ok(finder.found),
        Err(Stop::Custom(e)) => Err(e),
    }
}

struct Finder {
    path: Vec<String>,
    found: Option<NonFinite>,
}

#[derive(Debug)]
enum Stop {
    Found,
    Custom(String),
}

impl Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Stop::Found => write!(f, "a non-finite number"),
            Stop::Custom(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<T: Display>(msg: T) -> Self {
        Stop::Custom(msg.to_string())
    }
}

impl Finder {
    fn float(&mut self, v: f64) -> Result<(), Stop> {
        if v.is_finite() {
            return Ok(());
        }
        let mut path = String::new();
        for p in &self.path {
            if !p.starts_with('[') && !path.is_empty() {
                path.push('.');
            }
            path.push_str(p);
        }
        self.found = Some(NonFinite {
            path: if path.is_empty() {
                "the value".into()
            } else {
                path
            },
            value: v,
        });
        Err(Stop::Found)
    }

    fn nested<T: Serialize + ?Sized>(&mut self, key: String, v: &T) -> Result<(), Stop> {
        self.path.push(key);
        v.serialize(&mut *self)?;
        self.path.pop();
        Ok(())
    }
}

/// Sequences and maps: the index or key of each element goes on the path.
struct Compound<'a> {
    finder: &'a mut Finder,
    index: usize,
    key: Option<String>,
}

macro_rules! ok {
    ($($name:ident($($t:ty),*)),* $(,)?) => {
        $(fn $name(self, $(_: $t),*) -> Result<(), Stop> { Ok(()) })*
    };
}

impl<'a> ser::Serializer for &'a mut Finder {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    ok!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str)
    );

    fn serialize_f32(self, v: f32) -> Result<(), Stop> {
        self.float(v as f64)
    }
    fn serialize_f64(self, v: f64) -> Result<(), Stop> {
        self.float(v)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Stop> {
        v.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Stop> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Stop> {
        self.nested(variant.to_string(), v)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Stop> {
        Ok(Compound::new(self))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Stop> {
        Ok(Compound::new(self))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Stop> {
        Ok(Compound::new(self))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Stop> {
        Ok(Compound::new(self))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Stop> {
        Ok(Compound::new(self))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Stop> {
        Ok(Compound::new(self))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Stop> {
        Ok(Compound::new(self))
    }
}

impl<'a> Compound<'a> {
    fn new(finder: &'a mut Finder) -> Self {
        Compound {
            finder,
            index: 0,
            key: None,
        }
    }
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Stop> {
        let key = format!("[{}]", self.index);
        self.index += 1;
        self.finder.nested(key, v)
    }
}

macro_rules! elements {
    ($($tr:ident :: $method:ident),*) => {
        $(impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = Stop;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Stop> {
                self.element(v)
            }
            fn end(self) -> Result<(), Stop> {
                Ok(())
            }
        })*
    };
}
elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

macro_rules! fields {
    ($($tr:ident),*) => {
        $(impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = Stop;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), Stop> {
                self.finder.nested(key.to_string(), v)
            }
            fn end(self) -> Result<(), Stop> {
                Ok(())
            }
        })*
    };
}
fields!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Stop;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Stop> {
        self.key = Some(k.serialize(KeyName).unwrap_or_else(|_| "?".into()));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Stop> {
        let key = self.key.take().unwrap_or_else(|| "?".into());
        self.finder.nested(key, v)
    }
    fn end(self) -> Result<(), Stop> {
        Ok(())
    }
}

/// A map key as text for the path (strings and numbers; anything else is "?").
struct KeyName;

impl ser::Serializer for KeyName {
    type Ok = String;
    type Error = Stop;
    type SerializeSeq = Impossible<String, Stop>;
    type SerializeTuple = Impossible<String, Stop>;
    type SerializeTupleStruct = Impossible<String, Stop>;
    type SerializeTupleVariant = Impossible<String, Stop>;
    type SerializeMap = Impossible<String, Stop>;
    type SerializeStruct = Impossible<String, Stop>;
    type SerializeStructVariant = Impossible<String, Stop>;
    fn serialize_str(self, v: &str) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        v: &'static str,
    ) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<String, Stop> {
        v.serialize(self)
    }
    fn serialize_bool(self, _: bool) -> Result<String, Stop> {
        Err(Stop::Found)
    }
    fn serialize_i8(self, v: i8) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, _: f32) -> Result<String, Stop> {
        Err(Stop::Found)
    }
    fn serialize_f64(self, _: f64) -> Result<String, Stop> {
        Err(Stop::Found)
    }
    fn serialize_char(self, v: char) -> Result<String, Stop> {
        Ok(v.to_string())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, Stop> {
        Err(Stop::Found)
    }
    fn serialize_none(self) -> Result<String, Stop> {
        Err(Stop::Found)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, Stop> {
        Err(Stop::Found)
    }
    fn serialize_unit(self) -> Result<String, Stop> {
        Err(Stop::Found)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Stop> {
        Err(Stop::Found)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Stop> {
        Err(Stop::Found)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Stop> {
        Err(Stop::Found)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Stop> {
        Err(Stop::Found)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Stop> {
        Err(Stop::Found)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Stop> {
        Err(Stop::Found)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Stop> {
        Err(Stop::Found)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Stop> {
        Err(Stop::Found)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Stop> {
        Err(Stop::Found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(serde::Serialize)]
    struct Estimate {
        mean_ns: f64,
    }
    #[derive(serde::Serialize)]
    struct Doc {
        name: String,
        parameters: Vec<Estimate>,
        by_name: BTreeMap<String, Option<f64>>,
    }

    #[test]
    fn finds_the_path_of_a_nan_an_infinity_or_none() {
        let mut d = Doc {
            name: "x".into(),
            parameters: vec![Estimate { mean_ns: 1.0 }, Estimate { mean_ns: f64::NAN }],
            by_name: BTreeMap::new(),
        };
        let bad = first_non_finite(&d).unwrap().unwrap();
        assert_eq!(bad.path, "parameters[1].mean_ns");
        d.parameters[1].mean_ns = 1e300;
        assert_eq!(first_non_finite(&d).unwrap(), None);
        d.by_name.insert("TISL".into(), Some(f64::INFINITY));
        assert_eq!(first_non_finite(&d).unwrap().unwrap().path, "by_name.TISL");
        assert_eq!(
            first_non_finite(&f64::NAN).unwrap().unwrap().path,
            "the value"
        );
    }
}
