import CMicroHTTPD

/// Placeholder: the HTTP server lands with the service-core issue.
public enum HTTPPlaceholder {}
