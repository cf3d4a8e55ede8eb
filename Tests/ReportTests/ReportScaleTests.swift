import Testing
@testable import SyncLabReports

/// Reports are linear in lanes and anomalies (issue 14, item 10): 20,000 anomalies took 103 s
/// and 8,000 lanes 9 s when each anomaly searched every interval and each mark every lane.
struct ReportScaleTests {
    /// A saved run of `lanes` devices, each offline twice, with one write each.
    static func model(lanes: Int) throws -> ReportModel {
        var trace = #"{"t_us":0,"ev":"run","scenario":"s","variant":"base","seed":1,"accounts":["main"],"devices":["#
        trace += (0..<lanes).map { #"{"id":"D\#($0)","account":"main","clockOffset_us":0,"driftPpm":0.0,"online":true}"# }.joined(separator: ",")
        trace += "]}\n"
        for lane in 0..<lanes {
            // Two stretches offline per lane: [10, 20) and [30, 40) seconds, shifted by the lane.
            for (start, end) in [(10, 20), (30, 40)] {
                trace += #"{"t_us":\#(start * 1_000_000 + lane),"ev":"offline","device":"D\#(lane)"}"# + "\n"
                trace += #"{"t_us":\#(end * 1_000_000 + lane),"ev":"online","device":"D\#(lane)"}"# + "\n"
            }
            trace += #"{"t_us":\#(15_000_000 + lane),"ev":"op","device":"D\#(lane)","op":"kvs.set","write":"D\#(lane):1","summary":"kvs.set","outcome":"accepted","step":"steps[0]"}"# + "\n"
        }
        let result = #"{"scenario": "s", "variant": "base", "simulatedEnd_us": 50000000, "anomalies": []}"#
        return try ReportModel(trace: Array(trace.utf8), result: Array(result.utf8))
    }

    @Test func aLaneIsFoundByNameAndItsDowntimeByTimeAsALinearSearchWould() throws {
        let model = try ReportScaleTests.model(lanes: 300)
        #expect(model.laneIndex("D0") == 0)
        #expect(model.laneIndex("D299") == 299)
        #expect(model.laneIndex("nobody") == nil)
        for lane in stride(from: 0, to: 300, by: 7) {
            for seconds in [0, 10, 15, 20, 25, 30, 39, 40, 45] {
                let time = Int64(seconds) * 1_000_000 + Int64(lane % 3)
                let expected = model.downtime.first { $0.lane == lane && $0.start <= time && time < $0.end }
                let found = model.downInterval(lane: lane, at: time)
                #expect(found?.start == expected?.start && found?.end == expected?.end, "lane \(lane) at \(time)")
            }
        }
    }

    @Test func overlappingIntervalsOnALaneGiveTheFirstThatHoldsTheTime() throws {
        var model = try ReportScaleTests.model(lanes: 1)
        model.downtime = [ReportModel.Interval(lane: 0, start: 0, end: 100, what: "offline"),
                          ReportModel.Interval(lane: 0, start: 10, end: 20, what: "crashed"),
                          ReportModel.Interval(lane: 0, start: 150, end: 160, what: "crashed")]
        model.indexDowntime()
        #expect(model.downInterval(lane: 0, at: 15)?.what == "offline")
        #expect(model.downInterval(lane: 0, at: 120) == nil)
        #expect(model.downInterval(lane: 0, at: 155)?.what == "crashed")
        #expect(model.downInterval(lane: 1, at: 155) == nil)
    }

    @Test func everyLaneHasItsOwnRowAndTheCloudOneInTheMiddle() throws {
        let model = try ReportScaleTests.model(lanes: 5_000)
        let svg = TimelineSVG(model: model)
        #expect(Set(svg.rowOfLane).count == 5_000)
        #expect(svg.cloudRow == 2_500)
        #expect(!svg.rowOfLane.contains(svg.cloudRow))
        #expect(svg.laneY(0) < svg.cloudY && svg.cloudY < svg.laneY(4_999))
    }

    @Test func aFullLabelRowTakesNoMoreLabelsUnlessOneMustBeShown() {
        var rows = TimelineSVG.LabelRows()
        // Far apart, so none overlaps: only the cap stops them.
        for index in 0..<(2 * TimelineSVG.labelsPerRowMax) {
            let left = Double(index) * 100
            #expect(rows.place(left...(left + 10), force: false) != nil)
        }
        #expect(rows.place(1_000_000...1_000_010, force: false) == nil)
        #expect(rows.place(2_000_000...2_000_010, force: true) == 0)
        #expect(rows.used.map(\.count) == [TimelineSVG.labelsPerRowMax + 1, TimelineSVG.labelsPerRowMax])
    }
}
