import Foundation
import FoundationNetworking
let url = URL(string: "http://127.0.0.1:41801/apis/site/v2/sports/basketball/nba/scoreboard?dates=20241215")!
let t0 = Date()
let session = URLSession(configuration: .ephemeral)
let t1 = Date()
let (d, _) = try await session.data(from: url)
let t2 = Date()
let (d2, _) = try await session.data(from: url)
let t3 = Date()
print("session", t1.timeIntervalSince(t0)*1000, "first", t2.timeIntervalSince(t1)*1000, "second", t3.timeIntervalSince(t2)*1000, d.count, d2.count)
