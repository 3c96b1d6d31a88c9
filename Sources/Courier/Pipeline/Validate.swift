import Foundation
import HTTPTypes

extension Provider {
    /// The validate stage: the provider's validators, then the request's own, on `response`. A
    /// thrown error fails the call as ``CourierError/Kind/validation``, naming the validator.
    func validate(_ response: Response, _ own: [Validator]) throws(CourierError) {
        func run(_ validator: Validator) throws(CourierError) {
            do {
                try validator.check(response)
            } catch {
                throw CourierError(.validation(stage: validator.name, error), operationID: response.request?.operationID, request: response.request, response: response)
            }
        }
        for validator in validators { try run(validator) }
        for validator in own { try run(validator) }
    }
}
