// Module Checker.
