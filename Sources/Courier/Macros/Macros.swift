// Placeholder; the macro declarations follow.
