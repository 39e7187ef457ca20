"""Vocabulary of the generated company database: industries, countries, regions, phrases.

Each industry carries the synonyms a rep might type ("fintech" for Financial Services)
and phrases that its company descriptions are built from, so that keyword matching and
semantic ranking have something real to work on.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Industry:
    name: str
    synonyms: tuple[str, ...]
    nouns: tuple[str, ...]
    offerings: tuple[str, ...]
    customers: tuple[str, ...]


INDUSTRIES: tuple[Industry, ...] = (
    Industry(
        "Software",
        ("saas", "software", "tech", "b2b software", "cloud", "it", "apps"),
        ("SaaS", "software", "cloud platform", "developer tools"),
        ("builds workflow automation software", "offers a cloud platform for analytics",
         "develops CRM and sales enablement tools", "provides API-first developer tooling",
         "sells subscription software for project management", "builds cybersecurity monitoring software"),
        ("mid-market companies", "enterprise IT teams", "startups", "sales teams", "developers"),
    ),
    Industry(
        "Financial Services",
        ("fintech", "finance", "banking", "payments", "lending", "wealth management", "financial"),
        ("fintech", "payments", "banking", "lending"),
        ("runs a payments platform for online merchants", "offers digital banking accounts",
         "provides SME lending and invoice financing", "builds wealth management software",
         "processes cross-border payments", "offers expense management cards"),
        ("small businesses", "retail investors", "online merchants", "CFOs", "banks"),
    ),
    Industry(
        "Insurance",
        ("insurtech", "insurance", "underwriting", "claims"),
        ("insurance", "insurtech"),
        ("sells digital car and home insurance", "automates claims handling with AI",
         "offers cyber insurance for small businesses", "provides health insurance plans"),
        ("households", "small businesses", "fleet operators", "brokers"),
    ),
    Industry(
        "Healthcare",
        ("health", "healthcare", "medical", "clinic", "clinics", "dental", "healthtech", "medtech", "hospital"),
        ("healthcare", "medical", "dental", "medtech"),
        ("operates a network of dental clinics", "runs outpatient medical clinics",
         "builds telemedicine software for doctors", "manufactures diagnostic devices",
         "offers physiotherapy and rehabilitation services", "develops patient scheduling software"),
        ("patients", "hospitals", "dentists", "care providers", "insurers"),
    ),
    Industry(
        "Pharmaceuticals",
        ("pharma", "biotech", "life sciences", "drug development", "pharmaceutical"),
        ("biotech", "pharmaceutical", "life sciences"),
        ("develops oncology therapeutics", "runs clinical trials for rare diseases",
         "manufactures generic medicines", "builds lab automation for drug discovery"),
        ("hospitals", "research institutes", "pharmacies", "clinicians"),
    ),
    Industry(
        "Logistics & Supply Chain",
        ("logistics", "supply chain", "shipping", "freight", "transport", "warehousing", "delivery"),
        ("logistics", "freight", "supply chain"),
        ("runs last-mile delivery in major cities", "offers freight forwarding across Europe",
         "builds warehouse management software", "operates cold-chain transport",
         "provides fleet tracking and route optimization"),
        ("retailers", "manufacturers", "e-commerce brands", "wholesalers"),
    ),
    Industry(
        "Manufacturing",
        ("manufacturing", "industrial", "factory", "machinery", "industry 4.0"),
        ("manufacturing", "industrial", "engineering"),
        ("manufactures precision machine parts", "builds industrial robots",
         "produces packaging materials", "makes sensors for industry 4.0 factories"),
        ("automotive suppliers", "factories", "OEMs", "construction firms"),
    ),
    Industry(
        "Retail & E-commerce",
        ("retail", "ecommerce", "e-commerce", "shop", "consumer goods", "d2c", "marketplace"),
        ("e-commerce", "retail", "direct-to-consumer"),
        ("sells sustainable fashion online", "runs an online marketplace for furniture",
         "operates a chain of grocery stores", "sells consumer electronics direct to consumer"),
        ("shoppers", "families", "young professionals", "gift buyers"),
    ),
    Industry(
        "Marketing & Advertising",
        ("marketing", "advertising", "adtech", "agency", "martech", "seo", "branding"),
        ("marketing", "advertising", "martech"),
        ("runs performance marketing campaigns", "builds marketing automation software",
         "offers SEO and content marketing services", "operates a programmatic ad platform"),
        ("brands", "B2B companies", "e-commerce stores", "agencies"),
    ),
    Industry(
        "Education",
        ("education", "edtech", "e-learning", "training", "school", "university", "learning"),
        ("edtech", "education", "training"),
        ("builds an online learning platform", "offers corporate training programs",
         "runs coding bootcamps", "develops language learning apps"),
        ("students", "teachers", "HR teams", "universities"),
    ),
    Industry(
        "Real Estate",
        ("real estate", "proptech", "property", "construction", "housing"),
        ("real estate", "proptech", "construction"),
        ("manages commercial real estate portfolios", "builds property management software",
         "develops residential housing projects", "operates coworking spaces"),
        ("tenants", "landlords", "investors", "municipalities"),
    ),
    Industry(
        "Energy",
        ("energy", "renewables", "cleantech", "solar", "wind", "climate", "greentech", "utilities"),
        ("renewable energy", "cleantech", "energy"),
        ("installs solar panels for businesses", "develops wind farms", "builds battery storage systems",
         "offers carbon accounting software", "operates EV charging networks"),
        ("utilities", "homeowners", "industrial sites", "municipalities"),
    ),
    Industry(
        "Hospitality & Travel",
        ("hospitality", "travel", "hotels", "tourism", "restaurants", "traveltech"),
        ("hospitality", "travel", "hotel"),
        ("runs boutique hotels", "builds booking software for restaurants",
         "operates travel experiences and tours", "offers corporate travel management"),
        ("travelers", "restaurants", "hotel chains", "event planners"),
    ),
    Industry(
        "Professional Services",
        ("consulting", "legal", "accounting", "professional services", "legaltech", "hr", "recruiting"),
        ("consulting", "legal", "accounting"),
        ("provides management consulting for scale-ups", "offers outsourced accounting",
         "runs a recruiting agency for engineers", "builds contract management software for lawyers"),
        ("scale-ups", "law firms", "CFOs", "HR leaders"),
    ),
    Industry(
        "Media & Entertainment",
        ("media", "entertainment", "publishing", "gaming", "games", "streaming", "music"),
        ("media", "gaming", "publishing"),
        ("publishes mobile games", "runs a podcast network", "operates a video streaming service",
         "publishes trade magazines"),
        ("gamers", "listeners", "advertisers", "readers"),
    ),
    Industry(
        "Agriculture & Food",
        ("agriculture", "agritech", "food", "farming", "foodtech", "beverages"),
        ("agritech", "food", "farming"),
        ("produces organic food products", "builds precision farming sensors",
         "runs vertical farms", "brews craft beverages"),
        ("farmers", "grocery chains", "restaurants", "consumers"),
    ),
)


@dataclass(frozen=True)
class Country:
    name: str
    iso2: str
    iso3: str
    regions: tuple[str, ...]
    aliases: tuple[str, ...] = ()


COUNTRIES: tuple[Country, ...] = (
    Country("United States", "US", "USA", ("California", "New York", "Texas", "Massachusetts", "Washington",
                                           "Illinois", "Florida", "Colorado", "Georgia"), ("usa", "america")),
    Country("United Kingdom", "GB", "GBR", ("England", "Scotland", "Wales", "Northern Ireland"), ("uk", "britain")),
    Country("Germany", "DE", "DEU", ("Bavaria", "Berlin", "Hamburg", "North Rhine-Westphalia", "Baden-Württemberg",
                                     "Hesse", "Saxony")),
    Country("France", "FR", "FRA", ("Île-de-France", "Auvergne-Rhône-Alpes", "Occitanie", "Brittany")),
    Country("Netherlands", "NL", "NLD", ("North Holland", "South Holland", "Utrecht"), ("holland",)),
    Country("Sweden", "SE", "SWE", ("Stockholm", "Västra Götaland", "Skåne")),
    Country("Norway", "NO", "NOR", ("Oslo", "Vestland", "Trøndelag")),
    Country("Denmark", "DK", "DNK", ("Capital Region", "Central Jutland", "Zealand")),
    Country("Finland", "FI", "FIN", ("Uusimaa", "Pirkanmaa", "Southwest Finland")),
    Country("Poland", "PL", "POL", ("Masovia", "Lesser Poland", "Lower Silesia")),
    Country("Spain", "ES", "ESP", ("Madrid", "Catalonia", "Andalusia", "Valencia")),
    Country("Italy", "IT", "ITA", ("Lombardy", "Lazio", "Piedmont", "Emilia-Romagna")),
    Country("Switzerland", "CH", "CHE", ("Zurich", "Geneva", "Basel", "Vaud")),
    Country("Austria", "AT", "AUT", ("Vienna", "Upper Austria", "Tyrol")),
    Country("Canada", "CA", "CAN", ("Ontario", "Quebec", "British Columbia", "Alberta")),
    Country("Australia", "AU", "AUS", ("New South Wales", "Victoria", "Queensland")),
    Country("Ireland", "IE", "IRL", ("Leinster", "Munster")),
    Country("Estonia", "EE", "EST", ("Harju", "Tartu")),
)

REGION_GROUPS: dict[str, tuple[str, ...]] = {
    "nordics": ("Sweden", "Norway", "Denmark", "Finland"),
    "scandinavia": ("Sweden", "Norway", "Denmark"),
    "dach": ("Germany", "Austria", "Switzerland"),
    "benelux": ("Netherlands",),
    "baltics": ("Estonia",),
    "north america": ("United States", "Canada"),
    "europe": ("United Kingdom", "Germany", "France", "Netherlands", "Sweden", "Norway", "Denmark", "Finland",
               "Poland", "Spain", "Italy", "Switzerland", "Austria", "Ireland", "Estonia"),
    "emea": ("United Kingdom", "Germany", "France", "Netherlands", "Sweden", "Norway", "Denmark", "Finland",
             "Poland", "Spain", "Italy", "Switzerland", "Austria", "Ireland", "Estonia"),
    "apac": ("Australia",),
}
"""Names of groups of countries a rep may type as a country or a region."""

SIZES = ("1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5001+")
SIZE_WEIGHTS = (18, 30, 25, 12, 7, 5, 3)
SIZE_WORDS = {
    "1-10": "small", "11-50": "fast-growing", "51-200": "mid-sized", "201-500": "established",
    "501-1000": "large", "1001-5000": "leading", "5001+": "global",
}

NAME_SUFFIXES = ("Labs", "Group", "Systems", "Solutions", "Technologies", "Partners", "Works", "Co",
                 "Holdings", "Digital", "Analytics", "Health", "Logistics", "Energy", "Studio", "AG",
                 "GmbH", "Ltd", "Inc", "AB", "AS", "Oy", "BV", "SAS")
NAME_WORDS = ("North", "Blue", "Bright", "Nova", "Peak", "River", "Stone", "Cedar", "Atlas", "Orbit",
              "Vertex", "Harbor", "Summit", "Pioneer", "Signal", "Pixel", "Quantum", "Aurora", "Lumen",
              "Falcon", "Maple", "Iron", "Silver", "Green", "Cobalt", "Delta", "Echo", "Helix", "Kite",
              "Lighthouse", "Meridian", "Nimbus", "Oak", "Polar", "Prism", "Sage", "Tidal", "Urban", "Vivid",
              "Willow", "Zen", "Arrow", "Beacon", "Clover", "Drift", "Ember", "Fjord", "Granite", "Horizon")
EXTRAS = (
    "The team recently expanded into new markets and is hiring across sales and engineering.",
    "It was founded by industry veterans and is backed by venture capital.",
    "The company is known for its customer support and fast onboarding.",
    "It recently raised a growth round to expand internationally.",
    "Its product integrates with popular CRM and ERP systems.",
    "The company focuses on sustainability and transparent pricing.",
    "It partners with universities on research and innovation.",
    "The business is family owned and has grown steadily for two decades.",
)
