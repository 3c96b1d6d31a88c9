// The observability article's complete setup with swift-otel, compiled here rather than in the
// main package's tests: swift-otel does not compile under ThreadSanitizer, and the test suite runs
// under it. `DocumentationTests` checks this region against the article like every other sample.
import Courier
import Logging
import OTel
import ServiceLifecycle

@API
protocol Books {
    @GET("/books/:id")
    func book(id: Int) async throws -> Book
}

struct Book: Codable, Sendable {
    var id: Int
    var title: String
}

/// The service that uses the API.
struct Work: Service {
    let books: BooksAPI
    func run() async throws {}
}

// sample: otel-setup
import Courier
import Logging
import OTel
import ServiceLifecycle

enum BookshelfService {
    static func run() async throws {
        var configuration = OTel.Configuration.default
        configuration.serviceName = "bookshelf"
        configuration.traces.otlpExporter.endpoint = "http://collector:4318/v1/traces"
        configuration.metrics.otlpExporter.endpoint = "http://collector:4318/v1/metrics"
        configuration.logs.otlpExporter.endpoint = "http://collector:4318/v1/logs"
        // Bootstraps LoggingSystem, MetricsSystem and InstrumentationSystem.
        let observability = try OTel.bootstrap(configuration: configuration)

        var provider = Provider(baseURL: "https://books.example.com/v1")
        provider.observability.logger = Logger(label: "books-api")
        let books = BooksAPI(provider: provider)

        let work = Work(books: books)   // your service, using `books`
        let group = ServiceGroup(services: [observability, work], logger: Logger(label: "services"))
        try await group.run()
    }
}
// end sample
