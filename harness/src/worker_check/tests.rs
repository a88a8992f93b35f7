//! Tests of the worker check.
