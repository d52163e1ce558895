/// A dictionary whose entries are threaded on a doubly linked list in recency order.
///
/// The list is hand-built on contiguous arrays of slots linked by index (no per-node
/// allocation, no reference counting on the hot path); freed slots are reused. Every
/// operation is O(1): look-up, move to front, insert at front, remove, remove the least
/// recent. Both caches keep their recency order in one of these.
///
/// Everything is `@inlinable` so a client module using `MemoryCache<SomeKey, SomeValue>` can
/// get code specialised for its types. In the benchmark (Swift 6.3) calls into the actor still
/// ran the unspecialised code, whose cost is mostly type-metadata look-ups; keeping the links
/// in plain Int arrays cut that share from about 26 % to 8 % of the profile.
@usableFromInline
struct LRUList<Key: Hashable, Payload> {
    // Structure of arrays: slot i holds keys[i], payloads[i] and its links. The links live in
    // plain Int arrays so relinking never touches generic storage (cheap even when the code
    // runs unspecialised). `nil` key and payload mark a slot on the free list.
    @usableFromInline var keys: [Key?] = []
    @usableFromInline var payloads: [Payload?] = []
    @usableFromInline var previous: [Int] = []   // towards the front (more recent); `none` at the head
    @usableFromInline var next: [Int] = []       // towards the tail (less recent); `none` at the tail

    @inlinable static var none: Int { -1 }

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
        return payloads[index]
    }

    /// The payload for `key`, moving the entry to the front.
    @inlinable mutating func touch(_ key: Key) -> Payload? {
        guard let index = indexByKey[key] else { return nil }
        moveToFront(index)
        return payloads[index]
    }

    /// Inserts or replaces the entry for `key` at the front; returns the payload it replaced.
    @inlinable @discardableResult
    mutating func insertAtFront(_ key: Key, _ payload: Payload) -> Payload? {
        if let index = indexByKey[key] {
            let old = payloads[index]
            payloads[index] = payload
            moveToFront(index)
            return old
        }
        let index = allocate(key, payload, previous: LRUList.none, next: head)
        if head != LRUList.none { previous[head] = index }
        head = index
        if tail == LRUList.none { tail = index }
        indexByKey[key] = index
        return nil
    }

    /// Inserts an entry at the back (least recent end); used when rebuilding an order oldest first
    /// would be backwards. Replaces an existing entry in place of its old position.
    @inlinable mutating func insertAtBack(_ key: Key, _ payload: Payload) {
        if indexByKey[key] != nil { _ = remove(key) }
        let index = allocate(key, payload, previous: tail, next: LRUList.none)
        if tail != LRUList.none { next[tail] = index }
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
        guard tail != LRUList.none, let key = keys[tail], let payload = payloads[tail] else { return nil }
        return (key, payload)
    }

    /// Removes and returns the least recently used entry.
    @inlinable mutating func removeLeastRecent() -> (key: Key, payload: Payload)? {
        guard tail != LRUList.none else { return nil }
        let index = tail
        guard let key = keys[index] else { return nil }
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
            if let key = self.keys[index] { keys.append(key) }
            index = next[index]
        }
        return keys
    }

    @inlinable mutating func removeAll() {
        keys.removeAll()
        payloads.removeAll()
        previous.removeAll()
        next.removeAll()
        freeSlots.removeAll()
        indexByKey.removeAll()
        head = LRUList.none
        tail = LRUList.none
    }

    // MARK: Links

    @inlinable mutating func unlink(_ index: Int) {
        let before = previous[index]
        let after = next[index]
        if before != LRUList.none { next[before] = after } else { head = after }
        if after != LRUList.none { previous[after] = before } else { tail = before }
        previous[index] = LRUList.none
        next[index] = LRUList.none
    }

    @inlinable mutating func moveToFront(_ index: Int) {
        guard index != head else { return }
        unlink(index)
        next[index] = head
        if head != LRUList.none { previous[head] = index }
        head = index
        if tail == LRUList.none { tail = index }
    }

    /// Unlinks slot `index`, clears it (dropping the key and payload references) and frees it.
    @inlinable mutating func release(_ index: Int) -> (key: Key?, payload: Payload?) {
        unlink(index)
        let released = (keys[index], payloads[index])
        keys[index] = nil
        payloads[index] = nil
        freeSlots.append(index)
        return released
    }

    /// A slot for a new entry: a freed one if any, else a new one at the end.
    @inlinable mutating func allocate(_ key: Key, _ payload: Payload, previous before: Int, next after: Int) -> Int {
        if let free = freeSlots.popLast() {
            keys[free] = key
            payloads[free] = payload
            previous[free] = before
            next[free] = after
            return free
        }
        keys.append(key)
        payloads.append(payload)
        previous.append(before)
        next.append(after)
        return keys.count - 1
    }
}
