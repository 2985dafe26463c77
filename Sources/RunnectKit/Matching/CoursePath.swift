/// A course prepared for matching: its points as Earth-centred positions, cut into equal pieces
/// of at most ``sampleSpacingMeters`` along its length, whose ends are the points checked
/// against the run.
///
/// Pieces follow the course's length, not its taps: a drawn course with taps 300 m apart and a
/// recorded one with a point every 3 m are checked at the same spacing. Lengths here are chord
/// lengths, shorter than the geodesic legs by (length / R)² / 24: 10⁻⁹ for a 1 km leg. They only
/// weigh points against each other (coverage is a ratio); the course distance reported is the
/// geodesic one. Weights are whole centimetres so that equal coverages compare equal, whatever
/// order they were added in.
struct CoursePath {
    /// The longest piece, metres. Coverage is measured to about a piece per change between on
    /// and off the run: 0.2 % of a 10 km course.
    static let sampleSpacingMeters = 20.0

    /// One point checked against the run, and the course length it stands for (half of the
    /// piece on either side), in centimetres.
    struct Sample {
        var position: SIMD3<Double>
        var weight: Int64
        /// The point's latitude and longitude when it is one of the course's own points.
        var coordinate: Coordinate?
    }

    let coordinates: [Coordinate]
    let earthCentred: [SIMD3<Double>]
    /// Length along the course from its first point to each point, metres (chords).
    private let cumulativeMeters: [Double]
    /// Number of pieces, and the weight of each piece's end (centimetres).
    private let pieces: Int
    let pieceWeight: Int64

    /// Sum of all samples' weights (twice the course length in centimetres).
    var totalWeight: Int64 { 2 * Int64(pieces) * pieceWeight }
    /// Weight of the start and of the finish samples (half a piece each).
    var startWeight: Int64 { pieceWeight }
    var finishWeight: Int64 { pieceWeight }

    /// Prepares `coordinates`, which must have a position each (see ``CourseMatcher``).
    init(coordinates: [Coordinate]) {
        self.coordinates = coordinates
        earthCentred = coordinates.map(LocalTangentPlane.earthCentred)
        var cumulative = [0.0]
        cumulative.reserveCapacity(coordinates.count)
        for (a, b) in zip(earthCentred, earthCentred.dropFirst()) {
            cumulative.append(cumulative[cumulative.count - 1] + ((b - a) * (b - a)).sum().squareRoot())
        }
        cumulativeMeters = cumulative
        let length = cumulative[cumulative.count - 1]
        pieces = length > 0 ? Int((length / Self.sampleSpacingMeters).rounded(.up)) : 0
        pieceWeight = pieces > 0 ? Int64((length / Double(pieces) * 100).rounded()) : 0
    }

    /// Calls `body` with every sample after the start and before the finish, in course order,
    /// and the weight of every sample after it (the finish's included). Stops when `body` returns
    /// `false`.
    func forEachInteriorSample(_ body: (Sample, _ remainingWeight: Int64) -> Bool) {
        guard pieces > 1 else { return }
        let length = cumulativeMeters[cumulativeMeters.count - 1]
        var remaining = totalWeight - startWeight
        var leg = 0
        for piece in 1..<pieces {
            let along = length * Double(piece) / Double(pieces)
            while leg < coordinates.count - 2 && cumulativeMeters[leg + 1] <= along { leg += 1 }
            let legMeters = cumulativeMeters[leg + 1] - cumulativeMeters[leg]
            let fraction = legMeters > 0 ? min(max((along - cumulativeMeters[leg]) / legMeters, 0), 1) : 0
            let a = earthCentred[leg]
            var sample = Sample(position: a + (earthCentred[leg + 1] - a) * fraction, weight: 2 * pieceWeight)
            if fraction == 0 { sample.coordinate = coordinates[leg] }
            remaining -= sample.weight
            guard body(sample, remaining) else { return }
        }
    }
}
