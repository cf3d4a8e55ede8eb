// Module Reports.
