import Foundation

/// Generated courses that look like the service's: Korean and English titles, descriptions of
/// a sentence or two, Seoul-style addresses (`서울 송파구 잠실동 올림픽로 25`) and place names.
struct CorpusGenerator {
    struct Course {
        var owner: String
        var title: String
        var description: String
        var departure: [String]
        var isUploaded: Bool
        var createdAt: Date
        var distanceMeters: Double
        var scrapCount: Int
    }

    /// The same corpus on every platform and Swift version.
    private var random: SplitMix64
    private var clock: Double = 1_640_995_200  // 2022-01-01

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    private mutating func unit() -> Double { random.unit() }

    private mutating func int(_ bound: Int) -> Int { random.below(bound) }

    private mutating func pick<T>(_ items: [T]) -> T {
        items[int(items.count)]
    }

    static let districts: [(gu: String, towns: [String], roads: [String])] = [
        ("송파구", ["잠실동", "신천동", "방이동", "석촌동", "문정동", "가락동"], ["올림픽로", "송파대로", "백제고분로", "석촌호수로"]),
        ("서초구", ["반포동", "잠원동", "서초동", "방배동", "양재동"], ["반포대로", "신반포로", "강남대로", "양재천로"]),
        ("강남구", ["압구정동", "청담동", "삼성동", "대치동", "개포동", "역삼동"], ["테헤란로", "압구정로", "도산대로", "영동대로"]),
        ("영등포구", ["여의도동", "당산동", "문래동", "양평동"], ["여의대로", "국회대로", "노들로", "선유로"]),
        ("마포구", ["망원동", "합정동", "상암동", "연남동", "공덕동"], ["월드컵로", "양화로", "마포대로", "성미산로"]),
        ("성동구", ["성수동", "옥수동", "금호동", "행당동"], ["뚝섬로", "왕십리로", "독서당로", "성수일로"]),
        ("용산구", ["이촌동", "한남동", "이태원동", "후암동"], ["이촌로", "한강대로", "녹사평대로", "서빙고로"]),
        ("종로구", ["청운동", "삼청동", "혜화동", "평창동"], ["세종대로", "종로", "율곡로", "북악산로"]),
        ("중구", ["명동", "필동", "회현동", "신당동"], ["을지로", "퇴계로", "남산공원길", "소파로"]),
        ("광진구", ["자양동", "구의동", "광장동", "화양동"], ["능동로", "아차산로", "광나루로", "자양로"]),
        ("강동구", ["천호동", "암사동", "고덕동", "명일동"], ["천호대로", "올림픽로", "고덕로", "양재대로"]),
        ("노원구", ["상계동", "중계동", "하계동", "공릉동"], ["동일로", "노원로", "화랑로", "한글비석로"]),
        ("은평구", ["불광동", "응암동", "진관동", "녹번동"], ["통일로", "연서로", "진관길", "은평로"]),
        ("관악구", ["신림동", "봉천동", "남현동"], ["관악로", "남부순환로", "신림로", "호암로"]),
        ("강서구", ["마곡동", "화곡동", "가양동", "방화동"], ["공항대로", "양천로", "마곡중앙로", "강서로"]),
        ("동작구", ["사당동", "노량진동", "흑석동", "상도동"], ["동작대로", "노량진로", "현충로", "상도로"]),
    ]

    static let places = [
        "잠실종합운동장", "올림픽공원", "반포한강공원", "여의도한강공원", "뚝섬한강공원", "서울숲", "남산공원",
        "월드컵공원", "석촌호수", "양재천", "청계천", "북한산", "망원한강공원", "보라매공원", "어린이대공원",
        "Seoul Forest", "Olympic Park", "Banpo Bridge",
    ]

    static let koreanTitleStarts = [
        "잠실", "반포", "여의도", "망원", "성수", "석촌호수", "양재천", "남산", "한강", "올림픽공원", "서울숲",
        "청계천", "뚝섬", "이촌", "북한산", "상암", "한강공원", "잠실 한강공원", "반포 한강공원",
    ]
    static let koreanTitleEnds = [
        "10K", "5K", "하프", "야간 러닝", "새벽런", "한 바퀴", "인터벌", "업힐 훈련", "회복주", "LSD",
        "러닝 코스", "산책 코스", "조깅", "템포런", "풀코스 연습",
    ]
    static let englishTitles = [
        "Hangang Night Run", "Seoul Forest Loop", "Olympic Park 5K", "Morning Tempo Run", "Riverside Easy Jog",
        "Banpo Rainbow Bridge Run", "Namsan Hill Repeats", "Yeouido Sunset 10K", "Cheonggyecheon Stream Walk",
        "Long Sunday Run", "Recovery Shuffle", "Track Intervals", "Lake Seokchon Lap", "Han River Half",
    ]
    static let descriptionParts = [
        "평지 위주의 코스입니다.", "야경이 멋진 코스", "초보자 추천", "업힐 구간 있음", "화장실과 편의점 있음",
        "자전거 도로와 겹치니 주의", "그늘이 많아 여름에 좋아요", "한강 바람이 시원합니다", "신호등이 거의 없어요",
        "주말 아침 러닝 크루 모임 코스", "Flat and fast.", "Great for beginners.", "Bring water in summer.",
        "Lots of cyclists on weekends.", "Best at sunset.", "100% flat", "물 마실 곳 2곳", "서울 러닝 명소",
    ]
    static let owners = ["minji", "jisoo", "hyun", "seoyeon", "alex", "doyun", "yuna", "runner42", "sam", "haneul"]

    mutating func next() -> Course {
        let district = pick(Self.districts)
        let town = pick(district.towns)
        let road = pick(district.roads)
        var departure = ["서울", district.gu, town, "\(road) \(1 + int(300))"]
        if unit() < 0.5 { departure.append(pick(Self.places)) }

        let title: String
        switch int(10) {
        case 0..<3: title = pick(Self.englishTitles)
        case 3..<5: title = "\(town.dropLast()) \(pick(Self.koreanTitleEnds))"
        default: title = "\(pick(Self.koreanTitleStarts)) \(pick(Self.koreanTitleEnds))"
        }
        var description = pick(Self.descriptionParts)
        if unit() < 0.6 { description += " " + pick(Self.descriptionParts) }
        if unit() < 0.2 { description += " " + pick(Self.descriptionParts) }

        let isUploaded = unit() < 0.6
        let scrapCount = isUploaded ? Int(pow(unit(), 4) * 200) : 0
        // The store stamps a course when it inserts it, so dates follow ids, a course every
        // quarter of an hour on average (100,000 courses ≈ 3 years); one in 200 is stamped up to
        // a day earlier than the one before (clocks, racing writers), out of order.
        clock += unit() * 1_800
        let createdAt = Date(timeIntervalSince1970: unit() < 0.005 ? clock - unit() * 86_400 : clock)
        return Course(
            owner: pick(Self.owners), title: title, description: description, departure: departure,
            isUploaded: isUploaded, createdAt: createdAt, distanceMeters: (1_000 + unit() * 41_000).rounded(),
            scrapCount: scrapCount)
    }
}
