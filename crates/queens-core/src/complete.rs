//! Completion (work in progress).
