//! Unit tests of the renderer's internals.

use super::*;
