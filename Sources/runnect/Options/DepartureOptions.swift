import ArgumentParser
import RunnectStore

/// `--departure` and `--departure-name`, for the commands that add courses.
struct DepartureOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Departure address \"region city town [detail…]\", e.g. \"서울 송파구 잠실동 올림픽로 25\".",
            valueName: "address"))
    var departure: String?

    @Option(help: ArgumentHelp("The departure's place name (잠실종합운동장).", valueName: "name"))
    var departureName: String?

    func validate() throws {
        _ = try place()
    }

    /// The departure given, if any.
    /// - Throws: `ValidationError` naming `--departure` when the address is not one.
    func place() throws -> Departure? {
        guard let departure else {
            guard departureName == nil else { throw ValidationError("--departure-name needs --departure") }
            return nil
        }
        do {
            return try Departure(address: departure, name: departureName)
        } catch {
            throw ValidationError("--departure: \(error)")
        }
    }
}
