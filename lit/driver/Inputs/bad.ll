; Not LLVM IR that parses: for the driver's error on a bad IR input.
define i32 @f( {
