/* A second translation unit for the multi-input tests. */
int helper_value(int x) { return 3 * x + 1; }
