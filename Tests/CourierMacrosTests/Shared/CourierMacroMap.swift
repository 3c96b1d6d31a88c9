@testable import CourierMacroExpansions
import MacroTesting
import SwiftSyntaxMacros
import Testing


let courierMacros: [String: any Macro.Type] = [
    "API": APIMacro.self, "Mock": MockMacro.self,
    "GET": MarkerMacro.self, "POST": MarkerMacro.self, "PUT": MarkerMacro.self, "PATCH": MarkerMacro.self,
    "DELETE": MarkerMacro.self, "OPTIONS": MarkerMacro.self, "HEAD": MarkerMacro.self, "TRACE": MarkerMacro.self,
    "CONNECT": MarkerMacro.self, "HTTP": MarkerMacro.self, "URLForm": MarkerMacro.self, "Multipart": MarkerMacro.self,
    "JSON": MarkerMacro.self, "Coders": MarkerMacro.self, "KeyMapping": MarkerMacro.self, "Headers": MarkerMacro.self,
    "Authorization": MarkerMacro.self,
    "Endpoint": RequestStructMacro.self, "EndpointResponse": ResponseStructMacro.self,
    "PathParameter": MarkerMacro.self, "QueryItem": MarkerMacro.self, "QueryFlag": MarkerMacro.self,
    "QueryItems": MarkerMacro.self, "RequestHeader": MarkerMacro.self, "RequestHeaders": MarkerMacro.self,
    "RequestCookies": MarkerMacro.self, "RequestBody": MarkerMacro.self, "BodyField": MarkerMacro.self,
    "Param": MarkerMacro.self, "AbsoluteURL": MarkerMacro.self, "RequestHTTPMethod": MarkerMacro.self, "RequestPath": MarkerMacro.self, "ResponseBody": MarkerMacro.self,
    "ResponseErrorBody": MarkerMacro.self, "ResponseHeader": MarkerMacro.self, "ResponseStatusCode": MarkerMacro.self,
    "ResponseCookies": MarkerMacro.self, "NestedResponse": MarkerMacro.self,
]

