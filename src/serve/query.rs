//! The query of one request, checked parameter by parameter into plain values: each name must
//! be one the endpoint knows and given once, each value of the kind it names (a 400 that says
//! which parameter is wrong, its name and value echoed cut to 24 characters by [`shorten`]).

use std::collections::HashMap;

use queens_core::text::NotDecimal;
use queens_core::Algorithm;

use super::error::ApiError;

/// The query of one request, checked parameter by parameter.
pub(super) struct Params {
    pub(super) endpoint: String,
    map: HashMap<String, String>,
}

impl Params {
    /// Decodes the query: every name must be one of `known`, and given once.
    pub(super) fn new(
        endpoint: impl Into<String>,
        query: Option<&str>,
        known: &[&str],
    ) -> Result<Self, ApiError> {
        let endpoint = endpoint.into();
        let mut map: HashMap<String, String> = HashMap::new();
        for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            if !known.contains(&name.as_ref()) {
                return Err(ApiError::bad_request(format!(
                    "unknown parameter '{}' for {endpoint} (expected {})",
                    shorten(&name),
                    known.join(", ")
                )));
            }
            if let Some(first) = map.get(name.as_ref() as &str) {
                return Err(ApiError::bad_request(format!(
                    "parameter {name} is given twice ('{}' and '{}'): give it once",
                    shorten(first),
                    shorten(&value)
                )));
            }
            map.insert(name.into_owned(), value.into_owned());
        }
        Ok(Params { endpoint, map })
    }

    /// The value of `name`, as given: no space trimmed, as on the command line.
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.map.get(name).map(String::as_str)
    }

    /// `value` as a whole number in decimal digits only, as the command line takes one: not
    /// `+8`, ` 8` or `8.0`.
    pub(super) fn number(&self, name: &str, value: &str) -> Result<u64, ApiError> {
        queens_core::text::decimal(value).map_err(|why| {
            ApiError::bad_request(match why {
                NotDecimal::NotDigits => {
                    format!("{name} must be a whole number, not '{}'", shorten(value))
                }
                NotDecimal::TooLarge => format!(
                    "{name} = {} is too large (at most {})",
                    shorten(value),
                    u64::MAX
                ),
            })
        })
    }

    /// The board size: required, 1..=max.
    pub(super) fn n(&self, max: usize) -> Result<usize, ApiError> {
        let endpoint = &self.endpoint;
        let value = self.get("n").ok_or_else(|| {
            ApiError::bad_request(format!(
                "missing parameter n (the board size, a whole number from 1 to {max})"
            ))
        })?;
        let n = self.number("n", value)?;
        if n == 0 {
            return Err(ApiError::bad_request("n must be at least 1 (got 0)"));
        }
        if n > max as u64 {
            return Err(ApiError::bad_request(format!(
                "n = {n} is above the limit of {max} for {endpoint}"
            )));
        }
        Ok(n as usize)
    }

    pub(super) fn optional_number(&self, name: &str, default: u64) -> Result<u64, ApiError> {
        match self.get(name) {
            None => Ok(default),
            Some(value) => self.number(name, value),
        }
    }

    pub(super) fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.get(name) {
            None | Some("false" | "0" | "no") => Ok(false),
            Some("" | "true" | "1" | "yes") => Ok(true),
            Some(other) => Err(ApiError::bad_request(format!(
                "{name} must be true or false, not '{}'",
                shorten(other)
            ))),
        }
    }

    pub(super) fn algorithm(&self, default: Algorithm) -> Result<Algorithm, ApiError> {
        match self.get("algo") {
            None | Some("") => Ok(default),
            Some(name) => name.parse().map_err(|_| {
                let e = queens_core::search::UnknownAlgorithm(shorten(name));
                ApiError::bad_request(format!("algo: {e}"))
            }),
        }
    }
}

/// `value` cut to its first 24 characters (with `...`), for echoing in an error.
pub fn shorten(value: &str) -> String {
    queens_core::text::shorten(value, 24)
}
