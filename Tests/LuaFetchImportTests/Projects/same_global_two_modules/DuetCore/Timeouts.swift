// The framework's global of the same name: another module, another thing.
public let requestTimeout = 30
