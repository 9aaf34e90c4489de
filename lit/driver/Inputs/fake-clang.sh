#!/bin/sh
# Stands in for clang in the status pass-through test: complains and fails with status 42.
echo "fake-clang: error: deliberately failing" >&2
exit 42
