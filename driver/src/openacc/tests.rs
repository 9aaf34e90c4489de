//! Unit tests of the OpenACC front end.
