/// Internal helper: keeps the `capacity` smallest elements seen (all of them when `capacity`
/// is nil) and hands them back sorted. The top-k of a sort with a limit.
struct BoundedHeap<Element> {
    private var items: [Element] = []
    private let capacity: Int?
    private let less: (Element, Element) -> Bool

    init(capacity: Int?, by less: @escaping (Element, Element) -> Bool) {
        self.capacity = capacity
        self.less = less
    }

    mutating func insert(_ x: Element) {
        guard let k = capacity else { items.append(x); return }
        if k == 0 { return }
        if items.count < k {
            items.append(x)
            siftUp(items.count - 1)
        } else if less(x, items[0]) {
            items[0] = x
            siftDown(0)
        }
    }

    /// The kept elements, smallest first.
    func sorted() -> [Element] { items.sorted(by: less) }

    // A max-heap under `less`: the root is the largest kept element.
    private mutating func siftUp(_ i: Int) {
        var i = i
        while i > 0 {
            let parent = (i - 1) / 2
            guard less(items[parent], items[i]) else { return }
            items.swapAt(parent, i)
            i = parent
        }
    }

    private mutating func siftDown(_ i: Int) {
        var i = i
        while true {
            let l = 2 * i + 1, r = l + 1
            var largest = i
            if l < items.count && less(items[largest], items[l]) { largest = l }
            if r < items.count && less(items[largest], items[r]) { largest = r }
            if largest == i { return }
            items.swapAt(i, largest)
            i = largest
        }
    }
}
