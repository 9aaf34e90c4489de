//! The PTX language: tokens, syntax tree, parser.
pub mod ast;
pub mod lexer;
pub mod parser;
