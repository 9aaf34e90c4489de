#!/bin/sh
# Stands in for a clang that crashes: it dies of SIGSEGV.
kill -SEGV $$
