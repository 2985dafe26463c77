import Foundation
import Hummingbird
import NIOConcurrencyHelpers

/// What one request carries between the server's middleware and its routes.
struct RunnectRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// What the routes learn that the request's log line tells (the runner, an error's id):
    /// shared by reference, since each middleware and route gets its own copy of the context.
    let state = RequestState()

    /// The client's address (the proxy's, behind one): what sign-in attempts are counted by.
    let clientAddress: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "-"
    }

    /// Bodies (a course's map image in a multipart body) up to 32 MiB; over it, 413.
    var maxUploadSize: Int { RunnectServer.maximumUploadBytes }
}

/// The request's runner and error id, for its log line.
final class RequestState: Sendable {
    private let values = NIOLockedValueBox<(runnerID: Int64?, errorID: String?)>((nil, nil))

    var runnerID: Int64? {
        get { values.withLockedValue { $0.runnerID } }
        set { values.withLockedValue { $0.runnerID = newValue } }
    }

    var errorID: String? {
        get { values.withLockedValue { $0.errorID } }
        set { values.withLockedValue { $0.errorID = newValue } }
    }
}
