import Foundation
import StoreBench
import StoreConformance
import Testing

/// The key distributions against their theory: Zipf frequencies of the top keys, the
/// scramble's bijection, recency for `latest`.
@Suite("Key distributions")
struct KeyDistributionTests {
    static let draws = 200_000

    /// How often each key was drawn.
    private func frequencies(_ count: Int, seed: UInt64 = 11, draw: (inout SplitMix64) -> Int) -> [Int] {
        var rng = SplitMix64(seed: seed)
        var seen = [Int](repeating: 0, count: count)
        for _ in 0..<Self.draws {
            let k = draw(&rng)
            #expect(k >= 0 && k < count)
            if k >= 0 && k < count { seen[k] += 1 }
        }
        return seen
    }

    /// The observed share of a key is within 5 standard errors of its probability.
    private func expectNear(_ observed: Int, _ p: Double, _ label: String) {
        let n = Double(Self.draws)
        let sigma = (p * (1 - p) / n).squareRoot()
        let share = Double(observed) / n
        #expect(abs(share - p) <= 5 * sigma + 1e-9, "\(label): drawn \(share), expected \(p) ± \(5 * sigma)")
    }

    @Test(arguments: [1_000, 100_000])
    func zipfianTopKeysFollowTheTheory(count: Int) {
        var zipf = ZipfianGenerator(itemCount: count)
        let p = ZipfianGenerator.probabilities(count: count)
        let seen = frequencies(count) { zipf.next(&$0) }
        for i in 0..<20 { expectNear(seen[i], p[i], "key \(i) of \(count)") }
        // The theory itself: the probabilities sum to 1, and key 0 is 10^θ times key 9.
        #expect(abs(p.reduce(0, +) - 1) < 1e-9)
        #expect(abs(p[0] / p[9] - pow(10, 0.99)) < 1e-9)
        // The tail, summed over keys 20…: as often as the theory says.
        expectNear(seen[20...].reduce(0, +), p[20...].reduce(0, +), "keys 20 and above")
    }

    @Test func growingIsTheSameAsStartingLarger() {
        var grown = ZipfianGenerator(itemCount: 500)
        #expect(grown.itemCount == 500)
        grown.grow(to: 2_000)
        let fresh = ZipfianGenerator(itemCount: 2_000)
        var a = grown, b = fresh, r1 = SplitMix64(seed: 3), r2 = SplitMix64(seed: 3)
        for _ in 0..<1_000 { #expect(a.next(&r1) == b.next(&r2)) }
    }

    @Test(arguments: [1, 2, 7, 1_000, 1_024, 1_025])
    func scrambleIsABijection(count: Int) {
        var chooser = KeyChooser(.zipfian, count: count)
        var rng = SplitMix64(seed: 5)
        var hit = Set<Int>()
        for _ in 0..<(count * 40) { hit.insert(chooser.next(&rng)) }
        #expect(hit.allSatisfy { $0 >= 0 && $0 < count })
        // Zipf's hottest key is drawn with its own probability, wherever the scramble put it.
        let seen = frequencies(count) { chooser.next(&$0) }
        expectNear(seen.max()!, ZipfianGenerator.probabilities(count: count)[0], "hottest of \(count)")
    }

    @Test func zipfianScattersThePopularKeys() {
        var chooser = KeyChooser(.zipfian, count: 10_000)
        let seen = frequencies(10_000) { chooser.next(&$0) }
        let top = seen.indices.sorted { seen[$0] > seen[$1] }.prefix(5)
        #expect(Set(top) != Set(0..<5), "the popular keys are not the first ones")
    }

    @Test func latestFavoursTheNewestKeys() {
        var chooser = KeyChooser(.latest, count: 1_000)
        let seen = frequencies(1_000) { chooser.next(&$0) }
        expectNear(seen[999], ZipfianGenerator.probabilities(count: 1_000)[0], "the newest key")
        chooser.grow(to: 1_100)
        let after = frequencies(1_100) { chooser.next(&$0) }
        #expect(after[1_099] == after.max(), "after inserts the newest key is the hottest")
    }

    @Test func uniformIsFlat() {
        var chooser = KeyChooser(.uniform, count: 100)
        let seen = frequencies(100) { chooser.next(&$0) }
        for (k, n) in seen.enumerated() { expectNear(n, 0.01, "key \(k)") }
    }
}
