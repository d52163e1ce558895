/// A dictionary whose entries are threaded on a doubly linked list in recency order.
///
/// The list is hand-built on a contiguous array of nodes linked by index (no per-node
/// allocation, no reference counting on the hot path); freed slots are reused. Every
/// operation is O(1): look-up, move to front, insert at front, remove, remove the least
/// recent. Both caches keep their recency order in one of these.
///
/// Everything is `@inlinable` so a client module using `MemoryCache<SomeKey, SomeValue>`
/// gets code specialised for its types: unspecialised generic code spends most of its time
/// looking up type metadata (see Benchmarks/memory-cache.sh).
@usableFromInline
struct LRUList<Key: Hashable, Payload> {
    /// A slot in `nodes`; `key` and `payload` are nil while the slot is on the free list.
    @usableFromInline
    struct Node {
        @usableFromInline var key: Key?
        @usableFromInline var payload: Payload?
        @usableFromInline var previous: Int   // towards the front (more recent); `none` at the head
        @usableFromInline var next: Int       // towards the tail (less recent); `none` at the tail

        @inlinable
        init(key: Key?, payload: Payload?, previous: Int, next: Int) {
            self.key = key
            self.payload = payload
            self.previous = previous
            self.next = next
        }
    }

    @inlinable static var none: Int { -1 }

    @usableFromInline var nodes: [Node] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var indexByKey: [Key: Int] = [:]
    @usableFromInline var head = LRUList.none   // most recently used
    @usableFromInline var tail = LRUList.none   // least recently used

    @inlinable init() {}

    @inlinable var count: Int { indexByKey.count }
    @inlinable var isEmpty: Bool { indexByKey.isEmpty }

    /// The payload for `key`, without changing the order.
    @inlinable func peek(_ key: Key) -> Payload? {
        guard let index = indexByKey[key] else { return nil }
        return nodes[index].payload
    }

    /// The payload for `key`, moving the entry to the front.
    @inlinable mutating func touch(_ key: Key) -> Payload? {
        guard let index = indexByKey[key] else { return nil }
        moveToFront(index)
        return nodes[index].payload
    }

    /// Inserts or replaces the entry for `key` at the front; returns the payload it replaced.
    @inlinable @discardableResult
    mutating func insertAtFront(_ key: Key, _ payload: Payload) -> Payload? {
        if let index = indexByKey[key] {
            let old = nodes[index].payload
            nodes[index].payload = payload
            moveToFront(index)
            return old
        }
        let node = Node(key: key, payload: payload, previous: LRUList.none, next: head)
        let index: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            index = free
        } else {
            nodes.append(node)
            index = nodes.count - 1
        }
        if head != LRUList.none { nodes[head].previous = index }
        head = index
        if tail == LRUList.none { tail = index }
        indexByKey[key] = index
        return nil
    }

    /// Inserts an entry at the back (least recent end); used when rebuilding an order oldest first
    /// would be backwards. Replaces an existing entry in place of its old position.
    @inlinable mutating func insertAtBack(_ key: Key, _ payload: Payload) {
        if indexByKey[key] != nil { _ = remove(key) }
        let node = Node(key: key, payload: payload, previous: tail, next: LRUList.none)
        let index: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            index = free
        } else {
            nodes.append(node)
            index = nodes.count - 1
        }
        if tail != LRUList.none { nodes[tail].next = index }
        tail = index
        if head == LRUList.none { head = index }
        indexByKey[key] = index
    }

    /// Removes the entry for `key`; returns its payload.
    @inlinable @discardableResult
    mutating func remove(_ key: Key) -> Payload? {
        guard let index = indexByKey.removeValue(forKey: key) else { return nil }
        return release(index).payload
    }

    /// The least recently used entry, without removing it.
    @inlinable var leastRecent: (key: Key, payload: Payload)? {
        guard tail != LRUList.none, let key = nodes[tail].key, let payload = nodes[tail].payload else { return nil }
        return (key, payload)
    }

    /// Removes and returns the least recently used entry.
    @inlinable mutating func removeLeastRecent() -> (key: Key, payload: Payload)? {
        guard tail != LRUList.none else { return nil }
        let index = tail
        guard let key = nodes[index].key else { return nil }
        indexByKey.removeValue(forKey: key)
        let released = release(index)
        guard let payload = released.payload else { return nil }
        return (key, payload)
    }

    /// Keys from the most to the least recently used (O(n); for tests and diagnostics).
    @inlinable var keysMostRecentFirst: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var index = head
        while index != LRUList.none {
            if let key = nodes[index].key { keys.append(key) }
            index = nodes[index].next
        }
        return keys
    }

    @inlinable mutating func removeAll() {
        nodes.removeAll()
        freeSlots.removeAll()
        indexByKey.removeAll()
        head = LRUList.none
        tail = LRUList.none
    }

    // MARK: Links

    @inlinable mutating func unlink(_ index: Int) {
        let previous = nodes[index].previous
        let next = nodes[index].next
        if previous != LRUList.none { nodes[previous].next = next } else { head = next }
        if next != LRUList.none { nodes[next].previous = previous } else { tail = previous }
        nodes[index].previous = LRUList.none
        nodes[index].next = LRUList.none
    }

    @inlinable mutating func moveToFront(_ index: Int) {
        guard index != head else { return }
        unlink(index)
        nodes[index].next = head
        if head != LRUList.none { nodes[head].previous = index }
        head = index
        if tail == LRUList.none { tail = index }
    }

    /// Unlinks slot `index`, clears it (dropping the key and payload references) and frees it.
    @inlinable mutating func release(_ index: Int) -> (key: Key?, payload: Payload?) {
        unlink(index)
        let released = (nodes[index].key, nodes[index].payload)
        nodes[index].key = nil
        nodes[index].payload = nil
        freeSlots.append(index)
        return released
    }
}
