package main

func scaleSection(e *env) (string, error) { return "", nil }
