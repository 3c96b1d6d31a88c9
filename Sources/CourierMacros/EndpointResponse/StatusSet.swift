import SwiftSyntax

/// The statuses a body is read for, as far as its attribute spells them with literals:
/// `status: 201`, `statuses: [404, 410]`, `statuses: 400..<500`, or the default filters. A
/// strategy, or any other expression, is known only when the response arrives.
struct StatusSet: Equatable {
    var codes: Set<Int>

    /// `@ResponseBody`'s default: 200–399.
    static let success = StatusSet(codes: Set(200..<400))
    /// `@ResponseErrorBody`'s default: 400 and above.
    static let failure = StatusSet(codes: Set(400..<600))

    /// The set `expression` spells, or `nil` when it is not made of integer literals.
    init?(_ expression: ExprSyntax) {
        func integer(_ expression: ExprSyntax?) -> Int? {
            guard let token = expression?.as(IntegerLiteralExprSyntax.self)?.literal.text else { return nil }
            return Int(token.filter { $0 != "_" })
        }
        func range(_ lower: ExprSyntax?, _ operator: String, _ upper: ExprSyntax?) -> Set<Int>? {
            // A range wider than any set of statuses is taken as unknown rather than spelled out.
            guard let lower = integer(lower), let upper = integer(upper), upper - lower <= 1000 else { return nil }
            switch `operator` {
            case "..<" where lower <= upper: return Set(lower..<upper)
            case "..." where lower <= upper: return Set(lower...upper)
            default: return nil
            }
        }
        if let value = integer(expression) {
            codes = [value]
        } else if let array = expression.as(ArrayExprSyntax.self) {
            var codes: Set<Int> = []
            for element in array.elements {
                guard let value = integer(element.expression) else { return nil }
                codes.insert(value)
            }
            self.codes = codes
        } else if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3 {
            let parts = Array(sequence.elements)
            guard let codes = range(parts[0], parts[1].as(BinaryOperatorExprSyntax.self)?.operator.text ?? "", parts[2]) else { return nil }
            self.codes = codes
        } else if let infix = expression.as(InfixOperatorExprSyntax.self) {
            let name = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text ?? ""
            guard let codes = range(infix.leftOperand, name, infix.rightOperand) else { return nil }
            self.codes = codes
        } else {
            return nil
        }
    }

    init(codes: Set<Int>) {
        self.codes = codes
    }

    /// `201`, `404, 410`, `200–399`: runs of three or more written as ranges.
    var description: String {
        var runs: [String] = []
        var sorted = codes.sorted()[...]
        while let first = sorted.first {
            var last = first
            while sorted.dropFirst(last - first + 1).first == last + 1 { last += 1 }
            sorted = sorted.dropFirst(last - first + 1)
            switch last - first {
            case 0: runs.append("\(first)")
            case 1: runs.append("\(first), \(last)")
            default: runs.append("\(first)–\(last)")
            }
        }
        return runs.joined(separator: ", ")
    }
}
