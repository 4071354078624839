//! The error of a position text that does not read (shared rules 0.2): which field is wrong
//! and what is wrong with it, written `<field>: <what>`. One type for every game's position
//! text, each game naming its own fields.

/// A position text that does not read, with the field that is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FieldError<F> {
    /// The field.
    pub field: F,
    /// What is wrong with it.
    pub message: String,
}

/// A [`FieldError`] for `field`, as an `Err`.
///
/// # Errors
/// Always: that is what it is for.
pub fn field_err<F, T>(field: F, message: impl Into<String>) -> Result<T, FieldError<F>> {
    Err(FieldError {
        field,
        message: message.into(),
    })
}
