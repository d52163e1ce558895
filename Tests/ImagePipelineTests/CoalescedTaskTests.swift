import Testing
@testable import ImagePipeline

@Suite("CoalescedTask")
struct CoalescedTaskTests {
    @Test("a subscriber that arrives after the final event can no longer join (it would wait for nothing)")
    func noJoinAfterFinal() async throws {
        let task = CoalescedTask<Int> { _ in }
        let first = try #require(task.subscribe())
        let (resumed, resume) = AsyncStream<Void>.makeStream()
        task.start { publisher in
            publisher.finish(with: 42)
            // The work goes on after its result (writing caches, say): no one may join now.
            for await _ in resumed { break }
        }
        var values: [Int] = []
        for try await value in first { values.append(value) }
        #expect(values == [42])
        let joinedAfterFinal = task.subscribe() != nil
        #expect(!joinedAfterFinal)
        #expect(!task.isOpen)
        resume.yield()
        resume.finish()
    }

    @Test("late joiners that want previews get the latest preview first; others do not get previews")
    func previewReplay() async throws {
        let task = CoalescedTask<String> { _ in }
        let early = try #require(task.subscribe(wantsPreviews: true))
        let (steps, step) = AsyncStream<Void>.makeStream()
        let (sentEvents, sent) = AsyncStream<Void>.makeStream()
        task.start { publisher in
            publisher.sendPreview("p1")
            sent.yield()
            for await _ in steps { break }
            publisher.finish(with: "final")
        }
        var iterator = sentEvents.makeAsyncIterator()
        _ = await iterator.next()
        let late = try #require(task.subscribe(wantsPreviews: true))
        let plain = try #require(task.subscribe(wantsPreviews: false))
        step.yield()
        var earlyValues: [String] = [], lateValues: [String] = [], plainValues: [String] = []
        for try await value in early { earlyValues.append(value) }
        for try await value in late { lateValues.append(value) }
        for try await value in plain { plainValues.append(value) }
        #expect(earlyValues == ["p1", "final"])
        #expect(lateValues == ["p1", "final"])
        #expect(plainValues == ["final"])
    }

    @Test("the last subscriber leaving cancels the work; an earlier one leaving does not")
    func lastLeaverCancels() async throws {
        let (closedEvents, closed) = AsyncStream<Void>.makeStream()
        let task = CoalescedTask<Int> { _ in closed.yield() }
        let first = try #require(task.subscribe())
        let second = try #require(task.subscribe())
        let (cancelledEvents, cancelled) = AsyncStream<Bool>.makeStream()
        task.start { _ in
            let (forever, keepOpen) = AsyncStream<Void>.makeStream()
            await withTaskCancellationHandler {
                for await _ in forever {}
            } onCancel: {
                cancelled.yield(true)
                keepOpen.finish()
            }
        }
        let firstConsumer = Task { for try await _ in first {} }
        let secondConsumer = Task { for try await _ in second {} }
        firstConsumer.cancel()
        _ = await firstConsumer.result
        #expect(task.isOpen)
        secondConsumer.cancel()
        _ = await secondConsumer.result
        var iterator = cancelledEvents.makeAsyncIterator()
        #expect(await iterator.next() == true)
        var closedIterator = closedEvents.makeAsyncIterator()
        _ = await closedIterator.next()
        #expect(!task.isOpen)
    }
}
