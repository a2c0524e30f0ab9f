"""The queue's score (social.scoring): distinct reporters, their record as
reporters, the site's own reports and the reason."""

from __future__ import annotations

from social.scoring import AUTO_COUNTED, FLOOR, ReportFacts, case_score, reporter_weight


def test_a_new_reporter_weighs_in_full() -> None:
    assert reporter_weight(0, 0) == 1.0


def test_a_reporter_whose_reports_were_dismissed_weighs_less() -> None:
    assert reporter_weight(0, 4) < reporter_weight(0, 1) < reporter_weight(0, 0)
    assert reporter_weight(0, 1000) >= FLOOR


def test_a_reporter_whose_reports_were_upheld_keeps_full_weight() -> None:
    assert reporter_weight(5, 0) == 1.0
    assert reporter_weight(5, 1) > reporter_weight(0, 1)


def test_distinct_reporters_count_not_the_number_of_reports() -> None:
    one_person_five_times = [ReportFacts(1, "other") for _ in range(5)]
    three_people = [ReportFacts(n, "other") for n in (1, 2, 3)]
    assert case_score(three_people) > case_score(one_person_five_times)
    assert case_score(one_person_five_times) == case_score([ReportFacts(1, "other")])


def test_a_reporter_counts_at_their_gravest_reason() -> None:
    mixed = [ReportFacts(1, "other"), ReportFacts(1, "abuse")]
    assert case_score(mixed) == case_score([ReportFacts(1, "abuse")])


def test_abuse_and_collusion_weigh_more_than_other() -> None:
    for grave in ("abuse", "collusion"):
        assert case_score([ReportFacts(1, grave)]) > case_score([ReportFacts(1, "spam")])
        assert case_score([ReportFacts(1, "spam")]) > case_score([ReportFacts(1, "other")])


def test_an_unknown_reason_weighs_as_other() -> None:
    assert case_score([ReportFacts(1, "nonsense")]) == case_score([ReportFacts(1, "other")])


def test_an_auto_filed_report_weighs_more_than_one_persons() -> None:
    assert case_score([ReportFacts(None, "abuse")]) > case_score([ReportFacts(1, "abuse")])


def test_auto_filed_reports_count_only_up_to_a_few() -> None:
    many = [ReportFacts(None, "abuse") for _ in range(AUTO_COUNTED + 10)]
    few = [ReportFacts(None, "abuse") for _ in range(AUTO_COUNTED)]
    assert case_score(many) == case_score(few)


def test_a_discredited_reporter_adds_less_than_a_trusted_one() -> None:
    trusted = case_score([ReportFacts(1, "abuse", upheld=3, dismissed=0)])
    discredited = case_score([ReportFacts(1, "abuse", upheld=0, dismissed=6)])
    assert discredited < trusted


def test_no_reports_score_nothing() -> None:
    assert case_score([]) == 0
