/// A value kept behind one immutable reference: a struct holding one of these is a word wide
/// wherever it is copied or kept — in an async function's frame too — however many fields the
/// value has. Setting a field makes a new reference; use it for values set up once and read
/// often (a retry policy, an error, a request's seldom-used options).
struct Frozen<Value: Sendable>: Sendable {
    private final class Storage: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private var storage: Storage

    init(_ value: Value) { storage = Storage(value) }

    var value: Value {
        get { storage.value }
        set { storage = Storage(newValue) }
    }
}
