//! Reading values out of rows, the same way on both stores.

use sqlx::any::{AnyRow, AnyTypeInfoKind};
use sqlx::{Row as _, ValueRef as _};

use super::StorageError;
use super::model::{ChannelId, MessageId, TimeControl};
use crate::rules::RuleSet;

/// A row of either store.
pub(crate) type Row = AnyRow;

/// A transaction of either store.
pub(crate) type Tx = sqlx::Transaction<'static, sqlx::Any>;

/// A boolean column: PostgreSQL stores `BOOLEAN`, SQLite an integer 0 or 1.
pub(crate) fn flag(row: &Row, column: &str) -> Result<bool, StorageError> {
    let raw = row.try_get_raw(column)?;
    if raw.type_info().kind() == AnyTypeInfoKind::Bool || raw.is_null() {
        Ok(row.try_get::<bool, _>(column)?)
    } else {
        Ok(row.try_get::<i64, _>(column)? != 0)
    }
}

pub(crate) fn rules_from(spec: &str) -> Result<RuleSet, StorageError> {
    RuleSet::from_spec(spec).map_err(|e| StorageError::corrupt(format!("rules `{spec}`: {e}")))
}

pub(crate) fn small(v: i64, what: &str) -> Result<u8, StorageError> {
    u8::try_from(v).map_err(|_| StorageError::corrupt(format!("{what} {v} out of range")))
}

pub(crate) fn time_from(row: &Row) -> Result<TimeControl, StorageError> {
    let days: Option<i64> = row.try_get("days_per_move")?;
    let minutes: Option<i64> = row.try_get("minutes_per_move")?;
    TimeControl::from_db(days, minutes).ok_or_else(|| {
        StorageError::corrupt(format!(
            "time control: days {days:?}, minutes {minutes:?} out of range"
        ))
    })
}

pub(crate) fn pair(c: Option<i64>, m: Option<i64>) -> Option<(ChannelId, MessageId)> {
    Some((ChannelId::from_db(c?), MessageId::from_db(m?)))
}
