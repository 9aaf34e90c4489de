//! The PTX language: tokens, syntax tree, parser, and linking of several modules into one.
pub mod ast;
pub mod lexer;
pub mod link;
pub mod parser;
