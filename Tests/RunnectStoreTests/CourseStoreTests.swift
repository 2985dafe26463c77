import Testing
@testable import RunnectStore
