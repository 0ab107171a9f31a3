import { isChecked, Section, SettingInput, type SettingsFields } from "./section";

/** The dismissible info banner on the landing page. */
export function BannerSettings({ fields }: { fields: SettingsFields }) {
  const banner = fields.infoBanner.getFieldset();
  return (
    <Section
      name="banner"
      title="Info-Banner"
      description="Ein schließbarer Hinweis oben auf der Startseite."
    >
      <label className="inline-flex items-center gap-2">
        <input
          key={banner.enabled.key}
          type="checkbox"
          name={banner.enabled.name}
          defaultChecked={isChecked(banner.enabled)}
        />
        Banner anzeigen
      </label>
      <SettingInput meta={banner.text} id="bannerText" label="Text" />
    </Section>
  );
}
