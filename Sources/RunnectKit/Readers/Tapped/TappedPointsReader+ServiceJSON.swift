extension TappedPointsReader {
    /// The service's points, `[{"latitude": …, "longitude": …}, …]` or `[[lat, lon], …]`, read
    /// from the scanner after the root `[` up to its `]`. A bad point is the failure (the first
    /// one); what follows it is still read, so that JSON errors after it are reported first.
    static func servicePoints(_ scanner: JSONScanner) throws -> Result<[Coordinate], ReadError> {
        var coordinates: [Coordinate] = []
        var index = 0
        while true {
            let token = try scanner.next()
            if token == .endArray { return .success(coordinates) }
            switch try servicePoint(token, index: index, scanner) {
            case .success(let coordinate):
                coordinates.append(coordinate)
                index += 1
            case .failure(let error):
                while true {
                    let token = try scanner.next()
                    if token == .endArray { return .failure(error) }
                    try scanner.skip(after: token)
                }
            }
        }
    }

    /// One point whose first token is `token`, read to its end.
    private static func servicePoint(
        _ token: JSONToken, index: Int,
        _ scanner: JSONScanner
    ) throws -> Result<Coordinate, ReadError> {
        switch token {
        case .beginObject:
            // Each is nil when absent, .some(nil) when present but not a number: "latitude" then
            // wins over "lat" all the same. The first of a repeated name counts.
            var latitude: Double??
            var lat: Double??
            var longitude: Double??
            var lon: Double??
            var lng: Double??
            while try scanner.next() == .name {
                let name = try scanner.readName(maxBytes: 16)
                let value = try scanner.next()
                var number: Double?
                if case .number(let n) = value { number = n }
                if let name {
                    if name.equals("latitude") {
                        latitude = latitude ?? number
                    } else if name.equals("lat") {
                        lat = lat ?? number
                    } else if name.equals("longitude") {
                        longitude = longitude ?? number
                    } else if name.equals("lon") {
                        lon = lon ?? number
                    } else if name.equals("lng") {
                        lng = lng ?? number
                    }
                }
                try scanner.skip(after: value)
            }
            guard let latitude = (latitude ?? lat) ?? nil, let longitude = (longitude ?? lon ?? lng) ?? nil else {
                return .failure(.invalidContent("point \(index + 1) needs \"latitude\" and \"longitude\" numbers"))
            }
            return validatedResult(latitude, longitude, index: index)
        case .beginArray:
            var count = 0
            var latitude: Double?
            var longitude: Double?
            while true {
                let element = try scanner.next()
                if element == .endArray { break }
                if case .number(let number) = element {
                    if count == 0 { latitude = number } else if count == 1 { longitude = number }
                }
                try scanner.skip(after: element)
                count += 1
            }
            guard count == 2, let latitude, let longitude else { return .failure(neither(index)) }
            return validatedResult(latitude, longitude, index: index)
        default:
            try scanner.skip(after: token)
            return .failure(neither(index))
        }
    }

    private static func validatedResult(_ latitude: Double, _ longitude: Double, index: Int) -> Result<
        Coordinate, ReadError
    > {
        do {
            return .success(try validated(latitude, longitude, index: index))
        } catch {
            return .failure(error as? ReadError ?? .invalidContent("\(error)"))
        }
    }

    private static func neither(_ index: Int) -> ReadError {
        .invalidContent("point \(index + 1) is neither {\"latitude\",\"longitude\"} nor [lat, lon]")
    }
}
