// Used by host-loops.c: a function of another translation unit.
void log_step(int i) { (void)i; }
