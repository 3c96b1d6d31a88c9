// The currency types of Courier's API, available with `import Courier` alone.
@_exported public import HTTPTypes
@_exported public import class OpenAPIRuntime.HTTPBody
@_exported public import protocol OpenAPIRuntime.ClientMiddleware
@_exported public import protocol OpenAPIRuntime.ClientTransport
